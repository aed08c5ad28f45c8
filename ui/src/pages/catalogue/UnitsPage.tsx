import { useTranslation } from 'react-i18next';
import type { UnitsView } from '../../api';
import { formatCount } from '../../i18n';
import { useSession } from '../../session/session';
import { otherName, unitName, unitTree, type UnitNode } from './figures';
import { useLoad } from './useLoad';
import './catalogue.css';

/** The units as a tree (a unit beneath the one it belongs to), named in both languages. */
export function UnitsPage() {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const [load] = useLoad('units', () => api.get<UnitsView>('/api/units'));
  return (
    <div className="page catalogue-page">
      <h1>{t('units.heading')}</h1>
      <p className="muted">{t('units.intro')}</p>
      {load.state === 'loading' && (
        <p className="muted" role="status">
          {t('units.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('units.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && load.value.units.length === 0 && (
        <div className="empty">
          <h2>{t('units.empty.heading')}</h2>
          <p>{t('units.empty.body')}</p>
        </div>
      )}
      {load.state === 'ready' && load.value.units.length > 0 && (
        <section className="panel" aria-labelledby="units-tree-heading">
          <h2 id="units-tree-heading">
            {t('units.count', { n: formatCount(load.value.units.length, i18n.language) })}
          </h2>
          <UnitList nodes={unitTree(load.value.units)} label={t('units.treeLabel')} />
        </section>
      )}
    </div>
  );
}

function UnitList({ nodes, label }: { nodes: UnitNode[]; label?: string }) {
  return (
    <ul className="unit-tree" data-testid="unit-tree" aria-label={label}>
      {nodes.map((n) => (
        <UnitItem key={n.unit.id} node={n} />
      ))}
    </ul>
  );
}

function UnitItem({ node }: { node: UnitNode }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const u = node.unit;
  const other = otherName(u, lng);
  return (
    <li data-testid="unit" data-unit={u.id}>
      <div className="unit-row">
        <span className="unit-name" data-testid="unit-name">
          <bdi>{unitName(u, lng)}</bdi>
        </span>
        {other !== null && (
          <span className="unit-other" lang={lng === 'ar' ? 'en' : 'ar'}>
            <bdi dir={lng === 'ar' ? 'ltr' : 'rtl'}>{other}</bdi>
          </span>
        )}
        <span className="unit-code muted">
          {u.code === null ? t('units.noCode') : t('units.code', { code: String(u.code) })}
        </span>
        {u.retired_seq !== null && <span className="badge">{t('units.retired')}</span>}
        {u.aliases.length > 0 && (
          <span className="muted unit-aliases">
            {t('units.aliases', { aliases: u.aliases.join(lng === 'ar' ? '، ' : ', ') })}
          </span>
        )}
      </div>
      {node.children.length > 0 && <UnitList nodes={node.children} />}
    </li>
  );
}
