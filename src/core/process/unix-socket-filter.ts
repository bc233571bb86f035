// The seccomp program bubblewrap installs (`--seccomp FD`) before it runs a sandboxed command: no
// Unix socket of its own, so no way to reach docker.sock, ssh-agent, D-Bus or any other socket a
// path or the abstract namespace leads to. Classic BPF over `struct seccomp_data`, built here so
// nothing needs libseccomp.

/** `struct seccomp_data` offsets: the syscall number, the audit architecture, the low 32 bits of args[0] and args[1] (little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const ARG1 = 24;

const LD_W_ABS = 0x20;
const ALU_AND_K = 0x54;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
/** EPERM: what a socket() the filter refuses fails with, as with any refused permission. */
const REFUSED_ERRNO = 1;
/** ENOSYS for io_uring: programs fall back to plain system calls, which the filter sees. */
const ENOSYS = 38;

const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** The socket type without SOCK_NONBLOCK / SOCK_CLOEXEC. */
const SOCK_TYPE_MASK = 0xf;
/** x86_64's x32 ABI: the same architecture value, the system call numbers with this bit. */
const X32_SYSCALL_BIT = 0x40000000;

/** The system call numbers the filter judges, per architecture. */
interface Architecture {
  /** AUDIT_ARCH_* as `seccomp_data.arch` holds it. */
  readonly audit: number;
  readonly socket: number;
  readonly socketpair: number;
  /** A process of this architecture may run another ABI's calls under the same audit value (x32). */
  readonly refuseFromNr?: number;
}

/** Node's `process.arch` → the architecture's numbers (io_uring is 425–427 on both). */
export const FILTER_ARCHITECTURES: Readonly<Record<string, Architecture>> = {
  x64: { audit: 0xc000003e, socket: 41, socketpair: 53, refuseFromNr: X32_SYSCALL_BIT },
  arm64: { audit: 0xc00000b7, socket: 198, socketpair: 199 },
};

const IO_URING_SETUP = 425;
const IO_URING_REGISTER = 427;

type Instruction = readonly [code: number, jt: number, jf: number, k: number];

const load = (offset: number): Instruction => [LD_W_ABS, 0, 0, offset];
const ret = (value: number): Instruction => [RET_K, 0, 0, value];

/**
 * The filter for one architecture, as instructions. A system call of another architecture (i386
 * or x32 on x86_64) is refused outright, since its numbers mean other calls; `socket(AF_UNIX, …)`
 * is refused with EPERM; `socketpair(AF_UNIX, SOCK_DGRAM, …)` too (a datagram socket can send to
 * any socket path with sendto, though it is already connected); io_uring, which creates sockets
 * without a system call the filter sees, fails with ENOSYS; everything else is allowed.
 */
function unixSocketFilterInstructions(arch: Architecture): Instruction[] {
  const refuse = ret(RET_ERRNO | REFUSED_ERRNO);
  const allow = ret(RET_ALLOW);
  // Jumps are relative (the next instruction is 0); each names the instruction it leads to.
  const program: Instruction[] = [
    /* 0 */ load(ARCH),
    /* 1 */ [JEQ_K, 1, 0, arch.audit], // → 3
    /* 2 */ refuse,
    /* 3 */ load(NR),
    /* 4 */ arch.refuseFromNr !== undefined ? [JGE_K, 0, 1, arch.refuseFromNr] : [JEQ_K, 0, 1, 0xffffffff], // ≥ x32 bit → 5, else → 6
    /* 5 */ refuse,
    /* 6 */ [JEQ_K, 0, 4, arch.socket], // socket → 7, else → 11
    /* 7 */ load(ARG0),
    /* 8 */ [JEQ_K, 0, 1, AF_UNIX], // AF_UNIX → 9, else → 10
    /* 9 */ refuse,
    /* 10 */ allow,
    /* 11 */ [JEQ_K, 0, 6, arch.socketpair], // socketpair → 12, else → 18
    /* 12 */ load(ARG0),
    /* 13 */ [JEQ_K, 0, 3, AF_UNIX], // AF_UNIX → 14, else → 17
    /* 14 */ load(ARG1),
    /* 15 */ [ALU_AND_K, 0, 0, SOCK_TYPE_MASK],
    /* 16 */ [JEQ_K, 4, 0, SOCK_DGRAM], // datagram → 21 (refuse), else → 17
    /* 17 */ allow,
    /* 18 */ [JGE_K, 0, 3, IO_URING_SETUP], // < 425 → 22 (allow)
    /* 19 */ [JGE_K, 2, 0, IO_URING_REGISTER + 1], // > 427 → 22 (allow)
    /* 20 */ ret(RET_ERRNO | ENOSYS),
    /* 21 */ refuse,
    /* 22 */ allow,
  ];
  return program;
}

/** The filter as bubblewrap reads it from `--seccomp FD`: `struct sock_filter` entries in the machine's (little-endian) order. */
export function unixSocketFilter(nodeArch: string = process.arch): Buffer | undefined {
  const arch = FILTER_ARCHITECTURES[nodeArch];
  if (!arch) return undefined;
  const program = unixSocketFilterInstructions(arch);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}
