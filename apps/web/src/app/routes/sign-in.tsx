import { Navigate, useLocation, useNavigate } from "react-router";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { SignInForm } from "../../features/auth/sign-in-form.tsx";
import { useSession } from "../../features/auth/use-session.ts";
import { AuthLayout } from "../auth-layout.tsx";

export function SignInRoute() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const destination = returnPath(location.state);

  if (session.isPending) return <PageSpinner />;
  if (session.data?.member) return <Navigate to={destination} replace />;
  // A failed session check falls through to the form: signing in is the way to recover.
  return (
    <AuthLayout
      title="Sign in"
      footer="No account? Ask an admin of this Herald instance for an invite."
    >
      <SignInForm onSignedIn={() => navigate(destination, { replace: true })} />
    </AuthLayout>
  );
}

// The signed-in layout passes where the member was heading; only same-app paths are followed.
function returnPath(state: unknown): string {
  if (typeof state !== "object" || state === null || !("from" in state)) return "/";
  const { from } = state;
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) return "/";
  return from;
}
