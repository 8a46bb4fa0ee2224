import { ErrorState } from "../components/ui/error-state.tsx";

/** When the app cannot even decide which page to show, the error takes the whole page. */
export function FullPageError({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying: boolean }) {
  return (
    <div className="auth-page">
      <div className="auth-card">
        <ErrorState error={error} title="Herald is not responding" onRetry={onRetry} retrying={retrying} />
      </div>
    </div>
  );
}
