import { z } from "zod";

/** The ways Herald reaches a user. */
export const CHANNELS = ["push", "email", "sms"] as const;
export const ChannelSchema = z.enum(CHANNELS, { error: (issue) => `${JSON.stringify(issue.input)} is not a channel: use push, email or sms` });
export type Channel = z.infer<typeof ChannelSchema>;

/** Delivery lanes; critical work (OTPs, receipts) never waits behind bulk. */
export const LANES = ["critical", "bulk"] as const;
export const LaneSchema = z.enum(LANES, { error: (issue) => `${JSON.stringify(issue.input)} is not a lane: use critical or bulk` });
export type Lane = z.infer<typeof LaneSchema>;

/** Device platforms a push token can belong to. */
export const PLATFORMS = ["ios", "android", "web"] as const;
export const PlatformSchema = z.enum(PLATFORMS, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a platform: use ios, android or web`,
});
export type Platform = z.infer<typeof PlatformSchema>;
