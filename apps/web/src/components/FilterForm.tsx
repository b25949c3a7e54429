import { useState, type FormEvent, type ReactNode } from 'react';

/**
 * Text filters edited locally and applied on submit (so typing doesn't flood history), selects
 * applied at once by the caller. `onApply` gets the text values.
 */
export function FilterForm({
  fields,
  values,
  onApply,
  children,
  label,
}: {
  fields: { key: string; label: string; placeholder?: string; suggestions?: readonly string[] }[];
  values: Record<string, string | undefined>;
  onApply: (v: Record<string, string>) => void;
  children?: ReactNode;
  label: string;
}) {
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, values[f.key] ?? ''])),
  );
  const [seen, setSeen] = useState(values);
  if (fields.some((f) => seen[f.key] !== values[f.key])) {
    // The URL changed (back button, link): show its values.
    setSeen(values);
    setDraft(Object.fromEntries(fields.map((f) => [f.key, values[f.key] ?? ''])));
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    onApply(draft);
  }
  return (
    <form className="filters" onSubmit={submit} aria-label={label}>
      {fields.map((f) => (
        <label key={f.key}>
          {f.label}
          <input
            type="search"
            value={draft[f.key]}
            placeholder={f.placeholder}
            // Wide enough for the whole placeholder: it names real nodes, so it is never cut.
            size={Math.max(20, (f.placeholder?.length ?? 0) + 2)}
            onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
            data-testid={`filter-${f.key}`}
            list={f.suggestions ? `filter-${f.key}-list` : undefined}
          />
          {f.suggestions && (
            <datalist id={`filter-${f.key}-list`}>
              {f.suggestions.map((x) => (
                <option key={x} value={x} />
              ))}
            </datalist>
          )}
        </label>
      ))}
      {children}
      <button type="submit" data-testid="filter-apply">
        Apply
      </button>
    </form>
  );
}
