import { useNavigate } from "react-router";
import { CreateFirstAdminForm } from "../../features/auth/create-first-admin-form.tsx";
import { AuthLayout } from "../auth-layout.tsx";

export function SetupRoute() {
  const navigate = useNavigate();
  return (
    <AuthLayout
      title="Create the first admin"
      description="This Herald instance has no members yet. The first account is an admin who can invite everyone else."
    >
      <CreateFirstAdminForm onCreated={() => navigate("/", { replace: true })} />
    </AuthLayout>
  );
}
