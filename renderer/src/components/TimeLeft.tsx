import { FormattedMessage } from 'react-intl';

/**
 * A job's time left in words, from its `eta_seconds`: "about 40 s left", "about 2 min left",
 * "about 1 h 5 min left" ("còn khoảng 2 phút").
 */
export function TimeLeft({ seconds }: { seconds: number }) {
  if (seconds < 60) {
    return (
      <FormattedMessage
        id="time.left.seconds"
        defaultMessage="about {seconds, number} s left"
        values={{ seconds: Math.max(1, Math.ceil(seconds)) }}
      />
    );
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) {
    return (
      <FormattedMessage
        id="time.left.minutes"
        defaultMessage="about {minutes, number} min left"
        values={{ minutes }}
      />
    );
  }
  return (
    <FormattedMessage
      id="time.left.hours"
      defaultMessage="about {hours, number} h {minutes, number} min left"
      values={{ hours: Math.floor(minutes / 60), minutes: minutes % 60 }}
    />
  );
}
