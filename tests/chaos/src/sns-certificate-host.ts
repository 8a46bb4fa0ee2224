import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

// SNS's hosts, as the verifier accepts them (sns-verifier.ts): anything else is refused at CONNECT.
const SNS_AUTHORITY = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?:443$/;

/**
 * SNS's certificate download on loopback, reached by Herald's own code path: the API process
 * gets this host as its HTTPS proxy (NODE_USE_ENV_PROXY) and a TLS identity for the SNS host it
 * names in NODE_EXTRA_CA_CERTS, so its real `https.get` of the SigningCertURL arrives here and
 * gets the test signer's certificate. Nothing in Herald is told it is under test. Every
 * download is counted (a flood must fetch it once), and every CONNECT elsewhere is refused and
 * kept, so a test sees any request Herald should not have made.
 */
export class SnsCertificateHost {
  /** The paths downloaded, one entry per GET that reached the host. */
  readonly downloads: string[] = [];
  /** CONNECT targets refused: anything but an SNS host on 443. */
  readonly refused: string[] = [];
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-sns-host-"));
  private readonly proxy = http.createServer((_req, res) => res.writeHead(405).end());
  private tls: https.Server | null = null;

  private readonly certificatePem: string;
  private readonly certificateUrl: URL;

  private constructor(certificatePem: string, certificateUrl: URL) {
    this.certificatePem = certificatePem;
    this.certificateUrl = certificateUrl;
  }

  /** Serves `certificatePem` at `certificateUrl` (an SNS SigningCertURL). */
  static async start(certificatePem: string, certificateUrl: string): Promise<SnsCertificateHost> {
    const host = new SnsCertificateHost(certificatePem, new URL(certificateUrl));
    await host.listen();
    return host;
  }

  private async listen(): Promise<void> {
    const identity = tlsIdentity(this.dir, this.certificateUrl.hostname);
    this.tls = https.createServer({ key: identity.key, cert: identity.cert }, (req, res) => {
      this.downloads.push(req.url ?? "");
      if (req.method === "GET" && req.url === this.certificateUrl.pathname) return void res.writeHead(200, { "content-type": "application/x-pem-file" }).end(this.certificatePem);
      res.writeHead(404).end();
    });
    this.proxy.on("connect", (req, socket) => {
      if (!SNS_AUTHORITY.test(req.url ?? "")) {
        this.refused.push(req.url ?? "");
        return void socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      }
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      this.tls!.emit("connection", socket);
    });
    this.proxy.listen(0, "127.0.0.1");
    await new Promise((resolve) => this.proxy.once("listening", resolve));
  }

  /** What the Herald process needs in its environment to reach this host for SNS's downloads. */
  get environment(): Record<string, string> {
    return {
      NODE_USE_ENV_PROXY: "1",
      HTTPS_PROXY: `http://127.0.0.1:${(this.proxy.address() as AddressInfo).port}`,
      NO_PROXY: "127.0.0.1,localhost",
      NODE_EXTRA_CA_CERTS: path.join(this.dir, "cert.pem"),
    };
  }

  async stop(): Promise<void> {
    this.proxy.closeAllConnections();
    await new Promise((resolve) => this.proxy.close(resolve));
    this.tls?.closeAllConnections();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A self-signed TLS certificate for `hostname` (its SAN, as Node's hostname check requires), by openssl. */
function tlsIdentity(dir: string, hostname: string): { key: string; cert: string } {
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", `/CN=${hostname}`, "-addext", `subjectAltName=DNS:${hostname}`],
    { stdio: "ignore" },
  );
  return { key: fs.readFileSync(key, "utf8"), cert: fs.readFileSync(cert, "utf8") };
}
