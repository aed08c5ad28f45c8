import type { Messages } from './en';

// Arabic strings of the web UI (Modern Standard Arabic). To be reviewed by a native speaker
// who works with forensic evidence before the UI is used in the field.
export const ar: Messages = {
  app: {
    name: 'Custody',
    tagline: 'أرشيف الأدلة',
  },
  skipLink: 'انتقل إلى المحتوى الرئيسي',
  language: {
    label: 'اللغة',
  },
  nav: {
    label: 'التنقل الرئيسي',
    overview: 'نظرة عامة',
  },
  account: {
    label: 'حسابك',
    role: 'الدور: {{role}}',
    signOut: 'تسجيل الخروج',
    signingOut: 'جارٍ تسجيل الخروج…',
  },
  roles: {
    administrator: 'مسؤول النظام',
    investigator: 'محقق',
    examiner: 'فاحص',
    adjudicator: 'محكِّم',
    analyst: 'محلل',
    lawyer: 'محامٍ',
    'family liaison': 'مسؤول التواصل مع العائلات',
    'source custodian': 'أمين المصادر',
    auditor: 'مدقق',
  },
  signIn: {
    heading: 'تسجيل الدخول',
    intro: 'سجّل الدخول بالاسم وكلمة المرور اللذين أعطاك إياهما مسؤول النظام.',
    name: 'الاسم',
    password: 'كلمة المرور',
    submit: 'تسجيل الدخول',
    submitting: 'جارٍ تسجيل الدخول…',
    failed: 'الاسم أو كلمة المرور غير صحيحة، أو أن الحساب معطَّل.',
    expired: 'انتهت جلستك. يُرجى تسجيل الدخول مرة أخرى.',
    signedOut: 'لقد سجّلت الخروج.',
    unreachable: 'تعذّر الوصول إلى الخادم. تحقّق من الاتصال وحاول مرة أخرى.',
    refused: 'رفض الخادم تسجيل دخولك: {{message}}',
  },
  overview: {
    heading: 'نظرة عامة',
    loading: 'جارٍ تحميل الأرشيف…',
    error: 'تعذّر تحميل النظرة العامة: {{message}}',
    archive: {
      heading: 'الأرشيف',
      id: 'الأرشيف',
      origin: 'مصدر السجل',
      database: 'قاعدة البيانات',
    },
    counts: {
      heading: 'محتوى الأرشيف',
      items: 'العناصر',
      objects: 'الملفات المخزنة',
      deliveries: 'الدفعات المستلمة',
      ledger: 'قيود السجل',
    },
    empty: {
      heading: 'لم تُستلم أي أدلة بعد',
      body: 'تُستلم الدفعات على الخادم بالأمر custody ingest. يظهر كل عنصر هنا فور تسجيله في السجل.',
    },
    checkpoint: {
      heading: 'آخر نقطة تحقق موقّعة',
      intro:
        'نقطة التحقق هي قيمة التجزئة الجذرية للسجل عند حجم معيّن، موقّعة بمفتاح الأرشيف. يظهر الجذر نفسه بصيغتين.',
      size: 'عدد قيود السجل المشمولة',
      rootHex: 'التجزئة الجذرية (ست عشرية)',
      rootBase64: 'التجزئة الجذرية (base64)',
      verifierKey: 'مفتاح التحقق',
      verified: 'التوقيع صحيح بمفتاح التحقق الخاص بالأرشيف (جرى التحقق في هذا المتصفح).',
      notVerified: 'التوقيع غير صحيح: {{reason}}',
      originMismatch: 'نقطة التحقق تخص سجلًا آخر ({{origin}}).',
      caveat:
        'جرى هذا التحقق بشيفرة أرسلها هذا الخادم، لذا لا يمكنه الحماية من هذا الخادم نفسه. للتحقق المستقل، شغّل custody verify-export على نسخة مصدَّرة، على حاسوب تثق به.',
      none: 'لم تُوقَّع أي نقطة تحقق بعد. يوقّع الخادم نقطة خلال عشر ثوانٍ من أي تغيير، ومرة أخرى عند توقفه.',
      noteMissing: 'لا يرسل هذا الخادم نقطة التحقق الموقّعة نفسها، لذا لا يمكن عرض جذرها هنا.',
    },
  },
  notFound: {
    heading: 'الصفحة غير موجودة',
    body: 'لا توجد صفحة بهذا العنوان.',
    back: 'انتقل إلى النظرة العامة',
  },
};
