import "../../../features/categories/categories.css";
import { useMember } from "../../../features/auth/use-session.ts";
import { CategoriesTable } from "../../../features/categories/categories-table.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function CategoriesRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["categories.read", "categories.manage"]}>
      <CategoriesTable canManage={can("categories.manage")} />
    </RequireCapability>
  );
}
