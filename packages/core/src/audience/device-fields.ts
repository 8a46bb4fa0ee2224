import { z } from "zod";

/** A push token as a provider hands it out: opaque, at most 4,096 characters. */
export const DeviceTokenSchema = z.string().min(1, "must not be empty").max(4096, "must be at most 4,096 characters");
