import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { formatSize } from "./format-count.ts";
import { ProgressBar } from "./progress-bar.tsx";
import { uploadFile } from "./upload-file.ts";

type UploadState = { phase: "idle" } | { phase: "sending"; sent: number; total: number } | { phase: "failed"; message: string };

/** Picks a CSV file and streams it to the server with a progress bar; then on to its mapping. */
export function UploadCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const abort = useRef<AbortController | null>(null);
  // imports.list reports the upload limit, so a file too large is refused before a byte is sent.
  const maxFileBytes = useQuery(trpc.imports.list.queryOptions({ limit: 1 })).data?.maxFileBytes;

  async function upload() {
    if (!file) return;
    if (maxFileBytes !== undefined && file.size > maxFileBytes) {
      setState({ phase: "failed", message: `${file.name} is ${formatSize(file.size)}; this server imports files of at most ${formatSize(maxFileBytes)} (HERALD_IMPORT_MAX_MIB).` });
      return;
    }
    abort.current = new AbortController();
    setState({ phase: "sending", sent: 0, total: file.size });
    try {
      const uploaded = await uploadFile(file, (sent, total) => setState({ phase: "sending", sent, total }), abort.current.signal);
      await queryClient.invalidateQueries({ queryKey: trpc.imports.list.pathKey() });
      navigate(`/imports/${uploaded.id}`);
    } catch (error) {
      setState(error instanceof DOMException && error.name === "AbortError" ? { phase: "idle" } : { phase: "failed", message: (error as Error).message });
    }
  }

  const sending = state.phase === "sending";
  return (
    <Card
      title="Upload a CSV file"
      description="The first row must name the columns. Comma, semicolon, tab and pipe delimiters are recognised; save spreadsheets as “CSV UTF-8”."
    >
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void upload();
        }}
      >
        <div className="upload-row">
          <Field label="CSV file" hint="Users with their attributes, or a list of suppressed addresses or opt-outs: you choose after the upload.">
            {(control) => (
              <input
                {...control}
                className="input input-file"
                type="file"
                accept=".csv,.tsv,.txt,text/csv"
                disabled={sending}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setState({ phase: "idle" });
                }}
              />
            )}
          </Field>
          {sending ? (
            <Button onClick={() => abort.current?.abort()}>Cancel upload</Button>
          ) : (
            <Button type="submit" variant="primary" disabled={!file}>
              Upload
            </Button>
          )}
        </div>
        {state.phase === "sending" && (
          <ProgressBar
            label={`Uploading ${file?.name ?? "the file"}`}
            value={state.total > 0 ? state.sent / state.total : 0}
            detail={`${formatSize(state.sent)} of ${formatSize(state.total)}`}
          />
        )}
        {state.phase === "failed" && (
          <Alert tone="error" title="The upload was refused">
            {state.message}
          </Alert>
        )}
      </form>
    </Card>
  );
}
