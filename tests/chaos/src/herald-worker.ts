import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const TWILIO_ACCOUNT_SID = `AC${"c4a05".padEnd(32, "0")}`;
export const TWILIO_AUTH_TOKEN = "chaos-auth-token-0000000000000000";

/** A Herald worker process: production's entry point (apps/server/src/main.ts), HERALD_ROLE=worker. */
export interface HeraldWorker {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** The exit code, or the signal's name when a signal ended it. */
  exit: Promise<number | string | null>;
  kill9(): Promise<void>;
  terminate(): Promise<number | string | null>;
}

let serviceAccount: string | null = null;

/** A service account with a fresh RSA key: firebase-admin signs real JWTs with it. */
function fcmServiceAccount(): string {
  if (serviceAccount) return serviceAccount;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
  serviceAccount = JSON.stringify({
    type: "service_account",
    project_id: "herald-chaos",
    private_key_id: "0".repeat(40),
    private_key: privateKey,
    client_email: "herald@herald-chaos.iam.gserviceaccount.com",
    token_uri: "https://oauth2.googleapis.com/token",
  });
  return serviceAccount;
}

/** Every provider pointed at the simulator, the way an operator points them at the real services. */
export function providerEnvironment(simulatorUrl: string): Record<string, string> {
  return {
    HERALD_SES_REGION: "eu-west-1",
    HERALD_SES_ACCESS_KEY_ID: "AKIACHAOSCHAOSCHAOS",
    HERALD_SES_SECRET_ACCESS_KEY: "chaos-secret-access-key-0000000000",
    HERALD_SES_FROM: "Herald <chaos@herald.example>",
    HERALD_SES_ENDPOINT: simulatorUrl,
    HERALD_TWILIO_ACCOUNT_SID: TWILIO_ACCOUNT_SID,
    HERALD_TWILIO_AUTH_TOKEN: TWILIO_AUTH_TOKEN,
    HERALD_TWILIO_FROM: "+15005550006",
    HERALD_TWILIO_BASE_URL: simulatorUrl,
    HERALD_FCM_SERVICE_ACCOUNT: fcmServiceAccount(),
    HERALD_FCM_ENDPOINT: simulatorUrl,
    HERALD_FCM_TOKEN_ENDPOINT: simulatorUrl,
  };
}

/** Starts one worker process against `databaseUrl` with every provider on the simulator. */
export function startWorker(databaseUrl: string, simulatorUrl: string, extra: Record<string, string> = {}): HeraldWorker {
  const child = spawn(process.execPath, ["apps/server/src/main.ts"], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      HERALD_ROLE: "worker",
      HERALD_LOG_LEVEL: "warn",
      // A killed worker's jobs are freed by the next one to start, or its reaper, after this.
      HERALD_WORKER_SILENCE_MS: "2000",
      HERALD_BREAKER_COOL_DOWN_SECONDS: "2",
      // A failed send is tried again a second later, not ten: each scenario stays near 20 s.
      HERALD_RETRY_FLOOR_MS: "1000",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      ...providerEnvironment(simulatorUrl),
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exit = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  return {
    child,
    pid: child.pid!,
    output: () => output,
    exit,
    kill9: async () => {
      child.kill("SIGKILL");
      await exit;
    },
    terminate: async () => {
      child.kill("SIGTERM");
      return exit;
    },
  };
}
