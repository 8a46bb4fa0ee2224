import "../../features/imports/imports.css";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { ImportsList } from "../../features/imports/imports-list.tsx";
import { UploadCard } from "../../features/imports/upload-card.tsx";
import { RequireCapability } from "../require-capability.tsx";

export function ImportsRoute() {
  return (
    <>
      <PageHeader
        title="Import"
        description="Bring users, their attributes, suppressed addresses and opt-outs in from a CSV file: map its columns, preview the first rows, then import."
      />
      <RequireCapability anyOf={["audience.import"]}>
        <div className="stack">
          <UploadCard />
          <ImportsList />
        </div>
      </RequireCapability>
    </>
  );
}
