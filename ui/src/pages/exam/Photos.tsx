import { useTranslation } from 'react-i18next';
import { Viewer } from '../item/Viewer';
import { useRevealed } from '../item/reveal-memory';
import type { ImageContext } from '../../safeguards';
import '../item/item.css';

export interface CasePhoto {
  n: number;
  /** …/photos/n/preview (blurred unless ?unblurred=true). */
  preview: string;
  /** …/photos/n/original (full size, pixels only). */
  original: string;
}

/** The reveal memory's key of a case photograph (by plan, code and ordinal: no item id here). */
const memoryKey = (plan: string, code: string, n: number): string => `case:${plan}:${code}:${n}`;

function Thumb({
  plan,
  code,
  photo,
  selected,
  opened,
  onSelect,
}: {
  plan: string;
  code: string;
  photo: CasePhoto;
  selected: boolean;
  opened: boolean | undefined;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const [revealed] = useRevealed(memoryKey(plan, code, photo.n));
  return (
    <li>
      <button
        type="button"
        className={`thumb${selected ? ' selected' : ''}`}
        aria-pressed={selected}
        data-testid={`thumb-${photo.n}`}
        onClick={onSelect}
      >
        <img
          className={revealed ? '' : 'blurred-preview'}
          src={`${photo.preview}?size=256${revealed ? '&unblurred=true' : ''}`}
          alt={revealed ? '' : t('item.viewer.blurredAlt')}
          width={128}
          height={128}
          draggable={false}
        />
        <span>{t('exam.case.photo', { n: photo.n })}</span>
        {opened !== undefined && (
          <span className={opened ? 'ok small' : 'muted small'}>
            {opened ? t('exam.case.seenFull') : t('exam.case.notSeenFull')}
          </span>
        )}
      </button>
    </li>
  );
}

/** A case's photographs as a contact sheet (blurred, greyscale until revealed), and the selected one in the full-resolution viewer. */
export function CasePhotos(props: {
  plan: string;
  code: string;
  photos: readonly CasePhoto[];
  selected: number;
  onSelect: (n: number) => void;
  /** The photographs seen at full resolution, when they are tracked (an examiner's case). */
  opened?: readonly number[];
  onOpened?: (n: number) => void;
  /** 'examination' in the examiner's own case: their colour opt-in (the image settings) applies. */
  imageContext?: ImageContext;
}) {
  const { t } = useTranslation();
  const { plan, code, photos, selected, onSelect, opened, onOpened } = props;
  const photo = photos.find((p) => p.n === selected) ?? photos[0];
  return (
    <section className="panel exam-photos" aria-labelledby="photos-heading">
      <h2 id="photos-heading">{t('exam.case.photos', { count: photos.length })}</h2>
      <ul className="contact-sheet" aria-label={t('exam.case.contactSheet')}>
        {photos.map((p) => (
          <Thumb
            key={p.n}
            plan={plan}
            code={code}
            photo={p}
            selected={p.n === photo?.n}
            opened={opened?.includes(p.n)}
            onSelect={() => onSelect(p.n)}
          />
        ))}
      </ul>
      {photo !== undefined && (
        <Viewer
          key={photo.n}
          itemId={memoryKey(plan, code, photo.n)}
          mediaType="image/png"
          analysed
          label={t('exam.case.photo', { n: photo.n })}
          testId="case-viewer"
          source={{
            blurred: `${photo.preview}?size=1280`,
            unblurred: `${photo.preview}?size=1280&unblurred=true`,
            full: photo.original,
          }}
          onFullShown={onOpened === undefined ? undefined : () => onOpened(photo.n)}
          imageContext={props.imageContext ?? 'general'}
        />
      )}
    </section>
  );
}
