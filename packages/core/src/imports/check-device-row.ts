import { PlatformSchema, type Platform } from "../channels/channels.ts";
import { ExternalIdSchema } from "../config/audience.ts";
import { DeviceTokenSchema } from "../audience/device-fields.ts";
import { trimCell } from "./import-cells.ts";
import type { DevicesMapping } from "./import-mapping.ts";
import { parseWith, type Checked } from "./row-problem.ts";

/** A push token registered to a user, as `POST /users/:userId/devices` registers it. */
export interface ImportedDevice {
  kind: "devices";
  userId: string;
  token: string;
  platform: Platform;
}

/**
 * The REST API's checks with its words. The platform is read case-blind (`iOS` is ios), as
 * channels are. Whether the user exists does not matter: like the API, the import creates
 * users it has not seen.
 */
export function deviceChecker(mapping: DevicesMapping): (cells: readonly string[]) => Checked<ImportedDevice> {
  const externalId = parseWith(ExternalIdSchema, "user id");
  const token = parseWith(DeviceTokenSchema, "token");
  const platform = parseWith(PlatformSchema, "platform");
  return (cells) => {
    const id = trimCell(cells[mapping.userId]);
    if (id === "") return { ok: false, reason: "user id is empty" };
    const parsedId = externalId(id);
    if ("reason" in parsedId) return { ok: false, reason: parsedId.reason };
    const tokenText = trimCell(cells[mapping.token]);
    if (tokenText === "") return { ok: false, reason: "token is empty" };
    const parsedToken = token(tokenText);
    if ("reason" in parsedToken) return { ok: false, reason: parsedToken.reason };
    const platformText = "fixed" in mapping.platform ? mapping.platform.fixed : trimCell(cells[mapping.platform.column]).toLowerCase();
    if (platformText === "") return { ok: false, reason: "platform is empty" };
    const parsedPlatform = platform(platformText);
    if ("reason" in parsedPlatform) return { ok: false, reason: parsedPlatform.reason };
    return { ok: true, record: { kind: "devices", userId: id, token: tokenText, platform: parsedPlatform.value } };
  };
}
