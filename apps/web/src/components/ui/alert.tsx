import type { ReactNode } from "react";

type AlertTone = "error" | "warning" | "success" | "info";

/** An inline message; errors are announced as soon as they appear. */
export function Alert({ tone, title, children }: { tone: AlertTone; title?: string; children: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {title && <p className="alert-title">{title}</p>}
      <div>{children}</div>
    </div>
  );
}
