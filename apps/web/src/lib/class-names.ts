/** Joins the truthy class names: `classNames("btn", isActive && "active")`. */
export function classNames(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(" ");
}
