import { useSearchParams } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { UserHistory } from "../../features/user-history/user-history.tsx";
import { UserLookupForm } from "../../features/user-history/user-lookup-form.tsx";
import { RequireCapability } from "../require-capability.tsx";

/** /users?user=u-42: the id lives in the URL so a user's history can be linked and bookmarked. */
export function UsersRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const userId = searchParams.get("user") ?? "";

  return (
    <>
      <PageHeader
        title="Users"
        description="Look up a user to see every notification sent to them, what happened to it, and why."
      />
      <RequireCapability anyOf={["users.history"]}>
        <div className="stack">
          <Card title="Look up a user by id" description="The id your backend sends with its events and user updates.">
            {/* Keyed so that back/forward through looked-up ids refills the input. */}
            <UserLookupForm
              key={userId}
              initialUserId={userId}
              onLookUp={(next) => setSearchParams({ user: next })}
            />
          </Card>
          {userId && <UserHistory key={userId} userId={userId} />}
        </div>
      </RequireCapability>
    </>
  );
}
