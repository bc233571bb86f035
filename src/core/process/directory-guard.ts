/** The command-line syntax families a terminal's shell may speak. */
export type ShellSyntax = 'posix' | 'fish' | 'powershell';

/** The syntax of a shell, from its path or name (`/usr/bin/zsh`, `fish`, `pwsh.exe`); POSIX when unknown. */
export function shellSyntax(shell: string | undefined): ShellSyntax {
  const name = (shell ?? '')
    .split(/[\\/]/)
    .pop()!
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (name === 'fish') return 'fish';
  if (name === 'pwsh' || name === 'powershell') return 'powershell';
  return 'posix';
}

/**
 * `command` preceded by a change to `directory` that must succeed first, in the shell's own syntax.
 * What cd itself prints (CDPATH, a chpwd hook) is discarded, its errors are not. POSIX shells use
 * plain `cd`: dash has no `builtin`, and zsh's `command cd` looks for an external program.
 */
export function commandInDirectory(syntax: ShellSyntax, directory: string, command: string): string {
  switch (syntax) {
    case 'posix':
      return `cd -- ${posixQuote(directory)} >/dev/null && ${command}`;
    case 'fish':
      return `builtin cd -- ${fishQuote(directory)} >/dev/null && ${command}`;
    case 'powershell':
      // `if ($?)` rather than `&&`, which Windows PowerShell 5.1 lacks.
      return `Set-Location -LiteralPath ${powershellQuote(directory)}; if ($?) { ${command}\n}`;
  }
}

function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// Inside fish's single quotes only \' and \\ are escapes.
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

function powershellQuote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
