import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { formatCount } from '../../i18n';
import { Link, useLocationPath } from '../../router';
import { useSession } from '../../session/session';
import { CustodyTrail } from './CustodyTrail';
import { groupDump, groupMetadata } from './exif-groups';
import type { ItemDetail, NearDuplicate } from './types';
import { evidenceReturn } from './return-to';
import { Viewer } from './Viewer';
import { FIT, type View } from './viewer-math';
import './item.css';

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; detail: ItemDetail };

/** The item id of a path /items/:id, or null. */
export function itemIdOf(path: string): string | null {
  const m = /^\/items\/([0-9A-Za-z]{26})\/?$/.exec(path);
  return m?.[1]?.toUpperCase() ?? null;
}

/**
 * One item: the image (blurred until revealed, then full resolution), its file facts, EXIF,
 * indicators, near-duplicates side by side, and its custody trail with a proof checked here.
 */
export function ItemPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const path = useLocationPath();
  const id = itemIdOf(path);
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    if (id === null) return;
    let live = true;
    setLoad({ state: 'loading' });
    api.get<ItemDetail>(`/api/items/${id}`).then(
      (detail) => live && setLoad({ state: 'ready', detail }),
      (e: unknown) =>
        live && setLoad({ state: 'failed', message: e instanceof ApiError ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, id]);

  const name = load.state === 'ready' ? (load.detail.item?.name ?? load.detail.id) : id;
  return (
    <div className="page item-page">
      <p>
        <Link href={evidenceReturn()}>{t('item.back')}</Link>
      </p>
      <h1>
        <bdi>{name ?? t('notFound.heading')}</bdi>
      </h1>
      {id === null && <p>{t('notFound.body')}</p>}
      {id !== null && load.state === 'loading' && (
        <p className="muted" role="status">
          {t('item.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('item.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && <Item detail={load.detail} />}
    </div>
  );
}

function Item({ detail }: { detail: ItemDetail }) {
  const { t } = useTranslation();
  return (
    <>
      {detail.withdrawn ? (
        <p className="alert" role="alert">
          {t('item.withdrawn')}
        </p>
      ) : (
        <section className="panel" aria-labelledby="image-heading">
          <h2 id="image-heading">{t('item.viewer.heading')}</h2>
          <Viewer
            key={detail.id}
            itemId={detail.id}
            mediaType={detail.media_type}
            analysed={detail.analysed}
            label={t('item.viewer.heading')}
            testId="viewer"
          />
        </section>
      )}
      <div className="item-columns">
        <FileFacts detail={detail} />
        <Indicators detail={detail} />
      </div>
      <Exif detail={detail} />
      <NearDuplicates detail={detail} />
      <CustodyTrail trail={detail.trail} />
    </>
  );
}

function FileFacts({ detail }: { detail: ItemDetail }) {
  const { t, i18n } = useTranslation();
  const item = detail.item;
  const none = <span className="muted">{t('item.facts.none')}</span>;
  return (
    <section className="panel" aria-labelledby="facts-heading">
      <h2 id="facts-heading">{t('item.facts.heading')}</h2>
      <dl className="facts" data-testid="file-facts">
        <dt>{t('item.facts.name')}</dt>
        <dd>
          <bdi>{item?.name ?? '—'}</bdi>
        </dd>
        <dt>{t('item.facts.path')}</dt>
        <dd>
          <code dir="ltr" className="digest" data-testid="fact-path">
            {item?.path ?? '—'}
          </code>
        </dd>
        <dt>{t('item.facts.size')}</dt>
        <dd data-testid="fact-size">
          {t('item.facts.sizeValue', { bytes: formatCount(detail.size, i18n.language) })}
        </dd>
        <dt>{t('item.facts.sha256')}</dt>
        <dd>
          <code dir="ltr" className="digest" data-testid="fact-sha256">
            {detail.sha256}
          </code>
        </dd>
        <dt>{t('item.facts.type')}</dt>
        <dd>
          <code dir="ltr">{detail.media_type}</code>
        </dd>
        <dt>{t('item.facts.id')}</dt>
        <dd>
          <code dir="ltr">{detail.id}</code>
        </dd>
        <dt>{t('item.facts.delivery')}</dt>
        <dd>{item === null ? none : <code dir="ltr">{item.delivery}</code>}</dd>
        <dt>{t('item.facts.received')}</dt>
        <dd>{item === null ? none : <time dir="ltr">{item.received_at}</time>}</dd>
        <dt>{t('item.facts.subject')}</dt>
        <dd>{detail.subject === null ? none : <code dir="ltr">{detail.subject}</code>}</dd>
      </dl>
    </section>
  );
}

function Exif({ detail }: { detail: ItemDetail }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [dump, setDump] = useState<
    | { state: 'idle' | 'loading' }
    | { state: 'failed'; message: string }
    | { state: 'ready'; groups: ReturnType<typeof groupDump>; n: number }
  >({ state: 'idle' });
  const groups = detail.metadata === null ? [] : groupMetadata(detail.metadata);
  const loadDump = (): void => {
    setDump({ state: 'loading' });
    api.get<{ dump: Record<string, unknown> }>(`/api/items/${detail.id}/exif`).then(
      (r) => setDump({ state: 'ready', groups: groupDump(r.dump), n: Object.keys(r.dump).length }),
      (e: unknown) =>
        setDump({ state: 'failed', message: e instanceof ApiError ? e.message : String(e) }),
    );
  };
  return (
    <section className="panel" aria-labelledby="exif-heading">
      <h2 id="exif-heading">{t('item.exif.heading')}</h2>
      {groups.length === 0 && detail.c2pa === null && <p>{t('item.exif.none')}</p>}
      <div className="exif-groups" data-testid="exif-groups">
        {groups.map((g) => (
          <div key={g.group} className="exif-group" data-group={g.group}>
            <h3>{t(`item.exif.groups.${g.group}`)}</h3>
            <dl className="facts">
              {g.rows.map((r) => (
                <div key={r.field} className="fact-row">
                  <dt>{t(`item.exif.fields.${r.field}`)}</dt>
                  <dd dir="ltr">{r.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
        {detail.c2pa !== null && (
          <div className="exif-group" data-group="provenance">
            <h3>{t('item.exif.groups.provenance')}</h3>
            <dl className="facts">
              <div className="fact-row">
                <dt>{t('item.exif.fields.c2pa_state')}</dt>
                <dd dir="ltr">{detail.c2pa.state}</dd>
              </div>
              {detail.c2pa.codes.length > 0 && (
                <div className="fact-row">
                  <dt>{t('item.exif.fields.c2pa_codes')}</dt>
                  <dd dir="ltr">{detail.c2pa.codes.join(', ')}</dd>
                </div>
              )}
            </dl>
          </div>
        )}
      </div>
      {!detail.withdrawn && dump.state === 'idle' && (
        <button type="button" className="button quiet" onClick={loadDump}>
          {t('item.exif.full')}
        </button>
      )}
      {dump.state === 'loading' && <p className="muted">{t('item.exif.fullLoading')}</p>}
      {dump.state === 'failed' && (
        <p className="alert" role="alert">
          {t('item.exif.fullError', { message: dump.message })}
        </p>
      )}
      {dump.state === 'ready' && (
        <div className="exif-dump" data-testid="exif-dump">
          <h3>{t('item.exif.fullHeading', { n: dump.n })}</h3>
          {dump.groups.map((g) => (
            <details key={g.group} open={g.group === 'EXIF'}>
              <summary dir="ltr">
                {g.group} ({g.tags.length})
              </summary>
              <table dir="ltr">
                <thead>
                  <tr>
                    <th scope="col">{t('item.exif.tag')}</th>
                    <th scope="col">{t('item.exif.value')}</th>
                  </tr>
                </thead>
                <tbody>
                  {g.tags.map((tag) => (
                    <tr key={tag.tag}>
                      <th scope="row">{tag.tag}</th>
                      <td>{tag.value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ))}
        </div>
      )}
    </section>
  );
}

function Indicators({ detail }: { detail: ItemDetail }) {
  const { t, i18n } = useTranslation();
  const label = (code: string): string =>
    i18n.exists(`evidence.indicators.${code}`) ? t(`evidence.indicators.${code}` as 'evidence.indicators.EXIF_MISSING') : code;
  return (
    <section className="panel" aria-labelledby="indicators-heading">
      <h2 id="indicators-heading">{t('item.indicators.heading')}</h2>
      <p className="caveat" data-testid="indicators-note">
        {t('item.indicators.note')}
      </p>
      {detail.indicators === null && <p>{t('item.indicators.notAnalysed')}</p>}
      {detail.indicators !== null && detail.indicators.length === 0 && (
        <p>{t('item.indicators.none')}</p>
      )}
      {detail.indicators !== null && detail.indicators.length > 0 && (
        <ul className="indicators" data-testid="indicators">
          {detail.indicators.map((ind) => (
            <li key={ind.code} data-code={ind.code}>
              <strong>{label(ind.code)}</strong> <code dir="ltr">{ind.code}</code>
              {i18n.language !== 'en' && (
                <span className="muted small"> {t('item.indicators.explanationLang')}</span>
              )}
              <p lang="en" dir="ltr">
                {ind.explanation}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NearDuplicates({ detail }: { detail: ItemDetail }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const [view, setView] = useState<View>(FIT);
  const pairs = detail.near_duplicates;
  return (
    <section className="panel" aria-labelledby="dups-heading">
      <h2 id="dups-heading">{t('item.duplicates.heading')}</h2>
      {!detail.grey_step.ran && detail.grey_step.needed_by_this_object && (
        <p className="notice" data-testid="grey-step-skipped">
          {t('item.duplicates.greySkipped', {
            needing: formatCount(detail.grey_step.objects_needing_it, i18n.language),
            limit: formatCount(detail.grey_step.limit, i18n.language),
          })}
        </p>
      )}
      {pairs.length === 0 ? (
        <p>{t('item.duplicates.none')}</p>
      ) : (
        <>
          <p className="muted">{t('item.duplicates.intro')}</p>
          <ul className="duplicates" data-testid="near-duplicates">
            {pairs.map((p) => {
              const other = p.items[0];
              return (
                <li key={p.sha256} data-kind={p.kind}>
                  <div className="dup-head">
                    {other !== undefined ? (
                      <Link href={`/items/${other}`}>
                        <code dir="ltr">{other}</code>
                      </Link>
                    ) : (
                      <code dir="ltr">{p.sha256.slice(0, 16)}</code>
                    )}
                    <span className="badge">{t(`item.duplicates.kinds.${p.kind}`)}</span>
                    <span>{t('item.duplicates.distance', { d: formatCount(p.distance, i18n.language) })}</span>
                    {other !== undefined && (
                      <button
                        type="button"
                        className="button quiet"
                        aria-expanded={open === p.sha256}
                        onClick={() => {
                          setView(FIT);
                          setOpen(open === p.sha256 ? null : p.sha256);
                        }}
                      >
                        {open === p.sha256 ? t('item.duplicates.close') : t('item.duplicates.compare')}
                      </button>
                    )}
                  </div>
                  {open === p.sha256 && other !== undefined && (
                    <Compare detail={detail} pair={p} other={other} view={view} setView={setView} />
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

function Compare(props: {
  detail: ItemDetail;
  pair: NearDuplicate;
  other: string;
  view: View;
  setView(v: View): void;
}) {
  const { detail, pair, other, view, setView } = props;
  const { t } = useTranslation();
  const boxOn = pair.crop?.original;
  // A crop: its box on the larger view. An overlap: the shared part's box on each image.
  const overlap = pair.overlap ?? null;
  const thisBox = overlap !== null ? overlap.self : boxOn === detail.sha256 ? pair.crop?.box : null;
  const otherBox = overlap !== null ? overlap.other : boxOn === pair.sha256 ? pair.crop?.box : null;
  const boxLabel = t(overlap !== null ? 'item.duplicates.overlapBox' : 'item.duplicates.cropBox');
  return (
    <div className="compare" data-testid="compare">
      <p className="muted small">{t('item.duplicates.synced')}</p>
      <div className="compare-panes">
        <figure>
          <figcaption>{t('item.duplicates.thisImage')}</figcaption>
          <Viewer
            itemId={detail.id}
            mediaType={detail.media_type}
            analysed={detail.analysed}
            label={t('item.duplicates.thisImage')}
            testId="compare-this"
            view={view}
            onView={setView}
            box={thisBox}
            boxLabel={boxLabel}
            compact
          />
        </figure>
        <figure>
          <figcaption>{t('item.duplicates.otherImage', { id: other })}</figcaption>
          <Viewer
            itemId={other}
            mediaType={pair.media_type}
            analysed
            label={t('item.duplicates.otherImage', { id: other })}
            testId="compare-other"
            view={view}
            onView={setView}
            box={otherBox}
            boxLabel={boxLabel}
            compact
          />
        </figure>
      </div>
    </div>
  );
}
