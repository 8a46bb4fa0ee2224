import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { RoleBadge } from "../../components/ui/role-badge.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { AcceptInviteForm } from "../../features/auth/accept-invite-form.tsx";
import { useSession } from "../../features/auth/use-session.ts";
import { hasErrorCode } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AuthLayout } from "../auth-layout.tsx";

export function InviteRoute() {
  const { token = "" } = useParams();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const session = useSession();
  const info = useQuery(trpc.auth.inviteInfo.queryOptions({ token }, { staleTime: Infinity }));

  if (info.isPending) {
    return (
      <AuthLayout title="Join Herald">
        <div className="centered">
          <Spinner size="lg" label="Checking your invite" />
        </div>
      </AuthLayout>
    );
  }

  if (info.isError) {
    // NOT_FOUND: expired, used or revoked. BAD_REQUEST: not even shaped like a token, usually a
    // link cut short when it was pasted.
    const unusable = hasErrorCode(info.error, "NOT_FOUND");
    if (unusable || hasErrorCode(info.error, "BAD_REQUEST")) {
      return (
        <AuthLayout title="This invite link does not work" footer={<Link to="/sign-in">Go to sign in</Link>}>
          <Alert tone="warning">
            {unusable
              ? "The link has expired, has already been used, or was revoked."
              : "The link is incomplete: check that you copied all of it."}{" "}
            Ask an admin of this Herald instance for a new invite if you need one.
          </Alert>
        </AuthLayout>
      );
    }
    return (
      <AuthLayout title="Join Herald">
        <ErrorState error={info.error} title="Could not check your invite" onRetry={() => info.refetch()} retrying={info.isFetching} />
      </AuthLayout>
    );
  }

  const signedInAs = session.data?.member;
  return (
    <AuthLayout
      title="Join Herald"
      description="Choose your name and a password to accept the invite."
      footer={
        <>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </>
      }
    >
      <dl className="invite-summary">
        <div>
          <dt>Invited email</dt>
          <dd>{info.data.email}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>
            <RoleBadge role={info.data.role} />
          </dd>
        </div>
      </dl>
      {signedInAs && (
        <Alert tone="info">
          You are signed in as {signedInAs.email}. Accepting signs you in as {info.data.email} instead.
        </Alert>
      )}
      <AcceptInviteForm token={token} onAccepted={() => navigate("/", { replace: true })} />
    </AuthLayout>
  );
}
