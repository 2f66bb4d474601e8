import { useEffect } from 'react';
import { useStudio } from '../stores';

/** Applies the theme to <html data-theme>: the chosen one, or the system's (followed live). */
export function useTheme(): void {
  const theme = useStudio((s) => s.theme);
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = theme === 'dark' || (theme === 'system' && media.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
