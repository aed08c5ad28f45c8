import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../i18n';
import { useSession } from '../session/session';
import { REMINDER_MAX, REMINDER_MIN, IMAGE_MODES, type ImageMode } from './safeguards';
import { useRevealedToday, useSafeguardSettings } from './store';

/** The account's image settings: the default image mode, colour in examination, the reminder. */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  const { session } = useSession();
  const [settings, save] = useSafeguardSettings();
  const { count } = useRevealedToday();
  const [mode, setMode] = useState<ImageMode>(settings.imageMode);
  const [colour, setColour] = useState(settings.examinationColour);
  const [every, setEvery] = useState(String(settings.reminderEvery));
  const [saved, setSaved] = useState(false);
  const lang = i18n.language;
  const examiner = (session.permissions ?? []).includes('examination.submit');

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    save({ imageMode: mode, examinationColour: colour, reminderEvery: Number(every) });
    setSaved(true);
  };

  return (
    <div className="page settings-page">
      <h1>{t('safeguards.settings.heading')}</h1>
      <p>{t('safeguards.settings.intro')}</p>
      <form onSubmit={submit} onChange={() => setSaved(false)}>
        <fieldset>
          <legend>{t('safeguards.settings.mode.legend')}</legend>
          {IMAGE_MODES.map((m) => (
            <label key={m} className="choice">
              <input
                type="radio"
                name="image-mode"
                value={m}
                checked={mode === m}
                onChange={() => setMode(m)}
                aria-describedby={`mode-note-${m}`}
              />{' '}
              {t(`safeguards.settings.mode.${m}`)}
              <span id={`mode-note-${m}`} className="muted small">
                {t(`safeguards.settings.mode.${m}Note`)}
              </span>
            </label>
          ))}
          <p className="muted small">{t('safeguards.settings.gridNote')}</p>
        </fieldset>
        {(examiner || colour) && (
          <fieldset>
            <legend>{t('roles.examiner')}</legend>
            <label className="choice">
              <input
                type="checkbox"
                name="examination-colour"
                checked={colour}
                onChange={(e) => setColour(e.currentTarget.checked)}
                aria-describedby="examination-note"
              />{' '}
              {t('safeguards.settings.examination')}
              <span id="examination-note" className="muted small">
                {t('safeguards.settings.examinationNote')}
              </span>
            </label>
          </fieldset>
        )}
        <fieldset>
          <legend>{t('safeguards.reminder.heading')}</legend>
          <label className="choice" htmlFor="reminder-every">
            {t('safeguards.settings.reminder')}
          </label>
          <input
            id="reminder-every"
            name="reminder-every"
            type="number"
            min={REMINDER_MIN}
            max={REMINDER_MAX}
            step={1}
            required
            value={every}
            onChange={(e) => setEvery(e.currentTarget.value)}
            aria-describedby="reminder-note"
          />
          <p id="reminder-note" className="muted small">
            {t('safeguards.settings.reminderNote', {
              min: formatCount(REMINDER_MIN, lang),
              max: formatCount(REMINDER_MAX, lang),
            })}
          </p>
        </fieldset>
        <p data-testid="settings-today">
          {t('safeguards.settings.today', { n: formatCount(count, lang) })}
        </p>
        <button type="submit" className="button" data-testid="settings-save">
          {t('safeguards.settings.save')}
        </button>{' '}
        <span role="status" data-testid="settings-saved">
          {saved ? t('safeguards.settings.saved') : ''}
        </span>
      </form>
    </div>
  );
}
