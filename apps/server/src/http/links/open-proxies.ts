/** Mail systems that fetch images on the recipient's behalf, known by their User-Agent. */
export type OpenProxy = "apple_mpp" | "gmail_prefetch" | "google_image_proxy" | "yahoo_mail_proxy";

export interface OpenProxyMatch {
  proxy: OpenProxy;
  /**
   * Whether the fetch happens without the person opening the email (a prefetch on arrival), so
   * it proves nothing about a human open. Proxies that fetch when the person opens the message
   * are still flagged: their opens are real, but carry no IP or client of the reader.
   */
  prefetch: boolean;
}

// Offline heuristics only: Apple's relay IP ranges are not shipped with Herald.
const OPEN_PROXIES: ReadonlyArray<OpenProxyMatch & { matches: (userAgent: string) => boolean }> = [
  // Apple Mail Privacy Protection prefetches every image on delivery with this bare User-Agent.
  { proxy: "apple_mpp", prefetch: true, matches: (ua) => ua === "Mozilla/5.0" },
  // The Gmail app prefetches while a session is open, with this odd Edge/12 + trailing Mozilla UA.
  { proxy: "gmail_prefetch", prefetch: true, matches: (ua) => /Edge\/12\.246 Mozilla\/5\.0$/.test(ua) },
  // Google's image cache fetches when the reader opens the email (Gmail web and apps).
  { proxy: "google_image_proxy", prefetch: false, matches: (ua) => ua.includes("GoogleImageProxy") },
  { proxy: "yahoo_mail_proxy", prefetch: false, matches: (ua) => ua.includes("YahooMailProxy") },
];

/** The proxy behind an open pixel request, or null for a mail client fetching it itself. */
export function detectOpenProxy(userAgent: string | undefined): OpenProxyMatch | null {
  const ua = (userAgent ?? "").trim();
  const found = OPEN_PROXIES.find((p) => p.matches(ua));
  return found ? { proxy: found.proxy, prefetch: found.prefetch } : null;
}
