import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { isFiltered, noFilter, type AuditFilterDraft } from "./audit-filter.ts";

/** Member, action and a range of days; each change applies at once. */
export function AuditFilters({ filter, onChange, canListMembers }: { filter: AuditFilterDraft; onChange: (filter: AuditFilterDraft) => void; canListMembers: boolean }) {
  const trpc = useTRPC();
  const actions = useQuery(trpc.audit.actions.queryOptions());
  const members = useQuery({ ...trpc.members.list.queryOptions(), enabled: canListMembers });
  const change = (patch: Partial<AuditFilterDraft>) => onChange({ ...filter, ...patch });
  const backwards = filter.fromDay && filter.toDay && filter.toDay < filter.fromDay;

  return (
    <form className="toolbar" role="search" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
      {canListMembers && (
        <SelectField label="Member" name="member" value={filter.memberId} onChange={(event) => change({ memberId: event.target.value })} disabled={members.isPending}>
          <option value="">Anyone</option>
          {(members.data?.members ?? []).map((member) => (
            <option key={member.id} value={member.id}>
              {member.name} ({member.email})
            </option>
          ))}
        </SelectField>
      )}
      <SelectField
        label="Action"
        name="action"
        value={filter.action}
        onChange={(event) => change({ action: event.target.value })}
        hint={actions.isError ? "Could not load the list of actions." : undefined}
      >
        <option value="">Any action</option>
        {(actions.data?.actions ?? []).map((action) => (
          <option key={action} value={action}>
            {action}
          </option>
        ))}
      </SelectField>
      <TextField label="From" name="from" type="date" value={filter.fromDay} onChange={(event) => change({ fromDay: event.target.value })} className="toolbar-field-sm" />
      <TextField
        label="To"
        name="to"
        type="date"
        value={filter.toDay}
        onChange={(event) => change({ toDay: event.target.value })}
        className="toolbar-field-sm"
        error={backwards ? "Must not be before From." : undefined}
      />
      {isFiltered(filter) && (
        <div className="toolbar-buttons">
          <Button variant="ghost" onClick={() => onChange(noFilter)}>
            Clear filters
          </Button>
        </div>
      )}
    </form>
  );
}
