import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import type { SegmentPreset } from "./segment-types.ts";

/** "Copy from preset": the built-in rules, each in plain words; picking one copies it into the builder. */
export function CopyFromPresetButton({ replaces, onPick }: { replaces: boolean; onPick: (preset: SegmentPreset) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Copy from preset</Button>
      <ModalDialog
        open={open}
        wide
        title="Copy from a preset"
        description="A preset is an ordinary rule: copy it here, then change anything you like. The segment stays yours to edit."
        onClose={() => setOpen(false)}
      >
        <PresetList
          replaces={replaces}
          onPick={(preset) => {
            setOpen(false);
            onPick(preset);
          }}
        />
        <div className="dialog-actions">
          <Button onClick={() => setOpen(false)}>Cancel</Button>
        </div>
      </ModalDialog>
    </>
  );
}

function PresetList({ replaces, onPick }: { replaces: boolean; onPick: (preset: SegmentPreset) => void }) {
  const trpc = useTRPC();
  const presets = useQuery(trpc.segments.presets.queryOptions(undefined, { staleTime: Infinity }));
  if (presets.isPending) {
    return (
      <div role="status" className="segment-presets-loading">
        <span className="visually-hidden">Loading presets</span>
        <Skeleton width="70%" />
        <Skeleton width="90%" />
        <Skeleton width="60%" />
      </div>
    );
  }
  if (presets.isError) {
    return <ErrorState error={presets.error} title="Could not load the presets" onRetry={() => presets.refetch()} retrying={presets.isFetching} />;
  }
  return (
    <>
      {replaces && <Alert tone="warning">Copying a preset replaces the rule you have now.</Alert>}
      <ul className="segment-presets">
        {presets.data.items.map((preset) => (
          <li key={preset.key} className="segment-preset">
            <div className="segment-preset-text">
              <p className="segment-preset-name">{preset.name}</p>
              <p className="segment-preset-description">{preset.description}</p>
              <p className="segment-preset-words">{preset.words}</p>
            </div>
            <Button size="sm" variant="primary" onClick={() => onPick(preset)} aria-label={`Copy “${preset.name}”`}>
              Copy
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
