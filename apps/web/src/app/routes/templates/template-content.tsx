import { TemplateEditor } from "../../../features/templates/template-editor.tsx";
import { useTemplateDetail } from "./template-layout.tsx";

export function TemplateContentRoute() {
  const detail = useTemplateDetail();
  // Keyed: another template's address must not inherit this one's unsaved edits.
  return <TemplateEditor key={detail.template.key} detail={detail} />;
}
