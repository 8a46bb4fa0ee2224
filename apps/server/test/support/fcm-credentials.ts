import { generateKeyPairSync, randomBytes } from "node:crypto";
import nock from "nock";

/** A service-account document with a freshly generated RSA key: firebase-admin's cert() accepts it as a real one. */
export function testServiceAccount(projectId = "herald-test"): Record<string, string> {
  return testServiceAccountWithKey(projectId).serviceAccount;
}

/** The same, with the public half of its key, to verify the JWT firebase-admin signs with it. */
export function testServiceAccountWithKey(projectId = "herald-test"): { serviceAccount: Record<string, string>; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const serviceAccount = {
    type: "service_account",
    project_id: projectId,
    private_key_id: randomBytes(20).toString("hex"),
    private_key: privateKey,
    client_email: `herald@${projectId}.iam.gserviceaccount.com`,
    client_id: "100000000000000000000",
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: "https://oauth2.googleapis.com/token",
  };
  return { serviceAccount, publicKey };
}

/** Google's OAuth token endpoint, intercepted: counts the exchanges and answers a bearer token. */
export function interceptOAuthToken(answer: { status: number; body: object } = { status: 200, body: { access_token: "ya29.test-token", expires_in: 3599, token_type: "Bearer" } }) {
  const seen: Array<Record<string, string>> = [];
  const scope = nock("https://oauth2.googleapis.com")
    .persist()
    .post("/token", (body: Record<string, string>) => {
      seen.push(body);
      return true;
    })
    .reply(answer.status, answer.body);
  return { seen, scope };
}
