import { describe, expect, it } from "vitest";
import { ChannelSchema, LaneSchema, PlatformSchema } from "../src/channels/channels.ts";

describe("channel, lane and platform schemas", () => {
  it("accept the known values", () => {
    expect(ChannelSchema.parse("sms")).toBe("sms");
    expect(LaneSchema.parse("critical")).toBe("critical");
    expect(PlatformSchema.parse("web")).toBe("web");
  });

  it.each([
    [ChannelSchema, "whatsapp", '"whatsapp" is not a channel: use push, email or sms'],
    [LaneSchema, "urgent", '"urgent" is not a lane: use critical or bulk'],
    [PlatformSchema, "windows", '"windows" is not a platform: use ios, android or web'],
  ])("name the unknown value %#", (schema, value, message) => {
    expect(schema.safeParse(value).error?.issues[0]?.message).toBe(message);
  });
});
