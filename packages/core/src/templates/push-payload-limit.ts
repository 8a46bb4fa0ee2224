/** FCM refuses a message whose notification and data exceed 4 KiB. */
export const MAX_PUSH_PAYLOAD_BYTES = 4096;
