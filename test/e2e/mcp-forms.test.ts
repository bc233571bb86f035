// The MCP forms in the real VS Code workbench with the PACKAGED extension. Elicitation: a real MCP
// server (the SDK fixture over stdio) asks for input with text, whole-number, number, yes/no and
// choice fields in the middle of a tool call; the user fills the form in the chat (a wrong value is
// shown at its field), submits, declines or cancels, and the tool gets exactly that. Registry: "Browse
// servers" searches a local registry speaking the real API format, and the install form refuses a
// missing required field at the field, then writes the entry and the server appears.
// Screenshots: .test-artifacts/e2e/mcp-forms-*.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser/lib/esm/main.js';
import { fixtureEntry } from '../fixtures/mcp/mcp-test-support';
import { startLocalRegistry, type LocalRegistry } from '../fixtures/mcp/registry-server';
import type { RecordedRequest } from '../fixtures/scripted-llm-server';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;
const callSurvey = '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>survey</tool_name>\n<arguments>\n{}\n</arguments>\n</use_mcp_tool>';
const done = (text: string) => ({ text: `<attempt_completion>\n<result>${text}</result>\n</attempt_completion>` });

/** The text of the last message of a request (the tool result the model got). */
function lastText(request: RecordedRequest): string {
  const last = (request.body.messages as { content: unknown }[]).at(-1)!.content;
  return typeof last === 'string' ? last : (last as { text?: string }[]).map((part) => part.text ?? '').join('');
}

/** A server.json as a registry publishes it: a PyPI package with a required, a secret and a defaulted variable. */
const FORECAST = {
  name: 'io.github.example/forecast',
  title: 'Forecast',
  description: 'Forecasts for the trip',
  version: '1.0.0',
  packages: [
    {
      registryType: 'pypi',
      identifier: 'forecast-mcp',
      version: '1.0.0',
      transport: { type: 'stdio' },
      environmentVariables: [
        { name: 'FORECAST_UNITS', description: 'metric or imperial', isRequired: true },
        { name: 'FORECAST_API_KEY', description: 'API key', isRequired: true, isSecret: true },
        { name: 'FORECAST_REGION', description: 'Region', default: 'eu' },
      ],
    },
  ],
};

describe('The MCP forms in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  let registry: LocalRegistry | undefined;
  const session = useScriptedWorkbench('mcp-forms', {
    prepare: async ({ storage }) => {
      registry = await startLocalRegistry([FORECAST]);
      storage.write('mcp_settings.json', JSON.stringify({ mcpServers: { fx: fixtureEntry('--client-features') } }, null, 2));
    },
    settings: () => ({ 'smith.autoApprove.mcpTools': true, 'smith.mcp.registryUrl': registry!.url }),
  });
  after(async () => {
    await registry?.close();
  });

  it('a server form in the chat: a wrong value is shown at its field; Submit sends the values, Decline and Cancel say so', async () => {
    const { workbench, llm } = session;
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.waitFor({ timeout: UI_TIMEOUT });

    llm.enqueue({ text: callSurvey }, done('The trip is planned.'));
    await box.fill('Plan my trip');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    const form = panel.getByRole('form', { name: 'fx asks for input' });
    await form.waitFor({ timeout: UI_TIMEOUT });
    await form.getByText('Plan the trip.').waitFor();
    await form.getByLabel('City *').fill('Lisbon');
    await form.getByLabel('Nights *').fill('2.5');
    await form.getByLabel('Budget (EUR)').fill('120.5');
    await form.getByLabel('Breakfast').check();
    await form.getByLabel('Room *').selectOption({ label: 'Double' });
    await form.getByRole('button', { name: 'Submit' }).click();
    const nights = form.getByLabel('Nights *');
    await form.getByRole('alert').filter({ hasText: 'must be a whole number' }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await nights.getAttribute('aria-invalid'), 'true');
    assert.equal(await form.getByLabel('City *').inputValue(), 'Lisbon', 'what was typed stays');
    await workbench.screenshot('mcp-forms-1-wrong-value');
    assert.equal(llm.requests.length, 1, 'nothing was answered yet');

    await nights.fill('3');
    await form.getByRole('button', { name: 'Submit' }).click();
    await panel.locator('.completion-card').getByText('The trip is planned.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await form.count(), 0, 'the form is gone once answered');
    const answer = /survey accept (\{.*\})/.exec(lastText(llm.requestAt(1)))?.[1];
    assert.deepEqual(JSON.parse(answer ?? 'null'), { city: 'Lisbon', nights: 3, budget: 120.5, breakfast: true, room: 'double' });

    for (const action of ['Decline', 'Cancel'] as const) {
      llm.enqueue({ text: callSurvey }, done(`${action}d.`));
      await box.fill(`Ask again, I will ${action.toLowerCase()}`);
      await panel.getByRole('button', { name: 'Send', exact: true }).click();
      await form.waitFor({ timeout: UI_TIMEOUT });
      await form.getByRole('button', { name: action }).click();
      await panel.locator('.completion-card').getByText(`${action}d.`).waitFor({ timeout: UI_TIMEOUT });
      assert.match(lastText(llm.requests.at(-1)!), new RegExp(`survey ${action.toLowerCase()} \\{\\}`));
    }
    await workbench.screenshot('mcp-forms-2-answered');
  });

  it('the registry install form refuses a missing required field at the field, then installs and the server appears', async () => {
    const { workbench, storage } = session;
    const panel = workbench.webviewFrame();
    await workbench.page.getByRole('button', { name: 'MCP Servers' }).click();
    const servers = panel.getByRole('list', { name: 'Servers' });
    await servers.getByRole('heading', { name: 'fx' }).waitFor({ timeout: UI_TIMEOUT });

    await panel.getByRole('textbox', { name: 'Search the MCP Registry' }).fill('forecast');
    await panel.getByRole('button', { name: 'Search' }).click();
    const found = panel.getByRole('list', { name: 'Registry servers' }).getByRole('listitem').filter({ hasText: 'io.github.example/forecast' });
    await found.waitFor({ timeout: UI_TIMEOUT });
    assert.equal(registry!.queries.at(-1)?.get('search'), 'forecast');
    await found.getByRole('button', { name: 'Install…' }).click();
    await found.getByLabel(/^FORECAST_API_KEY \*/).fill('key-that-stays-secret');
    await found.getByRole('button', { name: 'Install', exact: true }).click();
    await found.getByRole('alert').filter({ hasText: 'FORECAST_UNITS is required.' }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await found.getByLabel(/^FORECAST_UNITS \*/).getAttribute('aria-invalid'), 'true');
    const settings = () => parseJsonc(readFileSync(join(storage.root, 'mcp_settings.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(Object.keys(settings().mcpServers), ['fx'], 'nothing was written');
    await workbench.screenshot('mcp-forms-3-missing-field');

    await found.getByLabel(/^FORECAST_UNITS \*/).fill('metric');
    await found.getByRole('button', { name: 'Install', exact: true }).click();
    await servers.getByRole('heading', { name: 'forecast' }).waitFor({ timeout: UI_TIMEOUT });
    assert.deepEqual(settings().mcpServers.forecast, {
      command: 'uvx',
      args: ['forecast-mcp==1.0.0'],
      env: { FORECAST_UNITS: 'metric', FORECAST_API_KEY: '${FORECAST_API_KEY}', FORECAST_REGION: 'eu' },
    });
    assert.doesNotMatch(readFileSync(join(storage.root, 'mcp_settings.json'), 'utf8'), /key-that-stays-secret/);
    assert.ok(settings().mcpServers.fx, 'the other server is kept');
    await workbench.screenshot('mcp-forms-4-installed');
  });
});
