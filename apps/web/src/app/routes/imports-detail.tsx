import "../../features/imports/imports.css";
import { useParams } from "react-router";
import { ImportView } from "../../features/imports/import-view.tsx";
import { RequireCapability } from "../require-capability.tsx";

/** /imports/:id: the mapping of an uploaded file, or the progress and refused rows of a started one. */
export function ImportDetailRoute() {
  const { id = "" } = useParams();
  return (
    <RequireCapability anyOf={["audience.import"]}>
      <ImportView key={id} id={id} />
    </RequireCapability>
  );
}
