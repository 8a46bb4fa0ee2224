import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The system account the embedded server runs as when Herald itself runs as root. */
export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

const POSTGRES_USER = "postgres";

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function lookupUser(name: string): SystemUser | null {
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** Postgres refuses to run as root: find (or create) the `postgres` system account. */
export function ensurePostgresUser(): SystemUser {
  const found = lookupUser(POSTGRES_USER);
  if (found) return found;
  execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", POSTGRES_USER]);
  const created = lookupUser(POSTGRES_USER);
  if (!created) throw new Error("Could not create the 'postgres' system user needed to run Postgres as root");
  return created;
}

/**
 * Whether `user` can enter every directory on the way to `target` (and `target` itself).
 * A checkout in root's home or under `mktemp -d` sits behind a 0700 directory it cannot pass.
 */
export function canTraverse(user: SystemUser, target: string): boolean {
  let dir = path.resolve(target);
  for (;;) {
    if (fs.existsSync(dir)) {
      const st = fs.statSync(dir);
      const ok =
        st.uid === user.uid ? (st.mode & 0o100) !== 0 : st.gid === user.gid ? (st.mode & 0o010) !== 0 : (st.mode & 0o001) !== 0;
      if (!ok) return false;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}
