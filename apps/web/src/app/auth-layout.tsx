import type { ReactNode } from "react";

/** The centred card for pages shown before anyone is signed in. */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="auth-page">
      <main className="auth-card">
        <p className="auth-brand">
          <span className="brand-mark" aria-hidden="true" />
          Herald
        </p>
        <h1 className="auth-title">{title}</h1>
        {description && <div className="auth-description">{description}</div>}
        {children}
      </main>
      {footer && <div className="auth-footer">{footer}</div>}
    </div>
  );
}
