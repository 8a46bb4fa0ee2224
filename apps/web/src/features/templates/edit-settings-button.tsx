import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import { TemplateSettingsForm } from "./template-settings-form.tsx";
import type { Template } from "./template-types.ts";
import { useInvalidateTemplates } from "./use-invalidate-templates.ts";

/** Name, channels, default category and locale; they apply to every version at once. */
export function EditSettingsButton({ template }: { template: Template }) {
  const trpc = useTRPC();
  const invalidateTemplates = useInvalidateTemplates();
  const update = useMutation(trpc.templates.update.mutationOptions({ onSuccess: invalidateTemplates }));
  const [open, setOpen] = useState(false);

  return (
    <>
      <Button
        onClick={() => {
          update.reset();
          setOpen(true);
        }}
      >
        Settings
      </Button>
      <ModalDialog
        open={open}
        title="Template settings"
        description="They apply to the draft and to every version at once; the key cannot change."
        busy={update.isPending}
        onClose={() => setOpen(false)}
      >
        <TemplateSettingsForm
          initial={template}
          isNew={false}
          submitLabel="Save settings"
          pending={update.isPending}
          error={update.error}
          onCancel={() => setOpen(false)}
          onSubmit={({ key, ...change }) => update.mutate({ key, ...change }, { onSuccess: () => setOpen(false) })}
        />
      </ModalDialog>
    </>
  );
}
