import { useState } from 'react';
import { FormattedMessage } from 'react-intl';

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard refused (insecure context or no permission): select-and-copy fallback.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className="icon" aria-label={label} title={label} onClick={() => void copy()}>
      {copied ? (
        <FormattedMessage id="components.copy.copied" defaultMessage="Copied" />
      ) : (
        <FormattedMessage id="components.copy.copy" defaultMessage="Copy" />
      )}
    </button>
  );
}
