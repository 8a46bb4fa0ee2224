import { parseArgs } from "node:util";
import { providerEnvironment } from "../herald-worker.ts";
import { LEDGER_PATH, ProviderSimulator } from "./simulator.ts";

// `pnpm simulator [--port N]`: the provider simulator as a process of its own, every provider
// answering ok, for pointing a local Herald at it by hand. Prints the settings that do so, and
// serves the ledger as JSON on GET /__ledger.
const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port must be a port number, got ${values.port}\n`);
  process.exit(2);
}

const sim = new ProviderSimulator();
const url = await sim.start(port);
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
const settings = Object.entries(providerEnvironment(url)).map(([name, value]) => `${name}=${quote(value)}`);
process.stdout.write(`provider simulator on ${url} (ledger: ${url}${LEDGER_PATH})\n${settings.join("\n")}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void sim.stop().then(() => process.exit(0)));
}
