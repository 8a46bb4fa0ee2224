import "../../../features/templates/templates.css";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { NewTemplateButton } from "../../../features/templates/new-template-button.tsx";
import { TemplatesList } from "../../../features/templates/templates-list.tsx";

export function TemplatesRoute() {
  const canEdit = useMember().can("templates.edit");
  return (
    <>
      <PageHeader
        title="Templates"
        description="Write each notification's content per channel and language, preview it with example data and publish new versions."
        actions={canEdit && <NewTemplateButton />}
      />
      <TemplatesList canEdit={canEdit} />
    </>
  );
}
