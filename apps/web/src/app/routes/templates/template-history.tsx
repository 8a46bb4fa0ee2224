import { TemplateHistory } from "../../../features/templates/template-history.tsx";
import { useTemplateDetail } from "./template-layout.tsx";

export function TemplateHistoryRoute() {
  return <TemplateHistory detail={useTemplateDetail()} />;
}
