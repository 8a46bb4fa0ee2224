import { useSearchParams } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { UserPage } from "../../features/users/user-page.tsx";
import { UserSearch } from "../../features/users/user-search.tsx";
import { RequireCapability } from "../require-capability.tsx";

/** /users?user=u-42: the id lives in the URL so a user's page can be linked and bookmarked. */
export function UsersRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const userId = searchParams.get("user") ?? "";

  return (
    <>
      <PageHeader
        title="Users"
        description="Find a user to see their profile, preferences and suppressions, every notification sent to them, and why one was or would be skipped."
      />
      <RequireCapability anyOf={["users.history", "users.read"]}>
        <div className="stack">
          <Card title="Find a user" description="Type the start of their id, email address or phone number.">
            {/* Keyed so that back/forward through opened users refills the input. */}
            <UserSearch key={userId} initialQuery={userId} onOpen={(next) => setSearchParams({ user: next })} />
          </Card>
          {userId && <UserPage key={userId} userId={userId} />}
        </div>
      </RequireCapability>
    </>
  );
}
