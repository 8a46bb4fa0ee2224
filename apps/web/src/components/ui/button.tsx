import type { ComponentProps } from "react";
import { classNames } from "../../lib/class-names.ts";
import { Spinner } from "./spinner.tsx";

type ButtonProps = ComponentProps<"button"> & {
  variant?: "primary" | "secondary" | "danger" | "ghost";
  size?: "md" | "sm";
  /** Disables the button and shows a spinner; the label stays so its accessible name is stable. */
  pending?: boolean;
};

export function Button({
  variant = "secondary",
  size = "md",
  pending = false,
  disabled,
  className,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={classNames("btn", `btn-${variant}`, size === "sm" && "btn-sm", className)}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending && <Spinner size="sm" />}
      {children}
    </button>
  );
}
