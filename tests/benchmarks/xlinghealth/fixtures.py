"""The XLingHealth fixture: a small ``--data-dir`` folder ``xlinghealth/`` in the layout
its upstream release ships, written for the tests (nothing copied from the benchmark's data).
``tests/fixture_data.py`` finds this module and calls ``write_fixtures``."""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.veritasqa.fixtures import csv_text
from tests.benchmarks.xlinghealth.upstream_code import write_upstream_code

DATA_FOLDER = "xlinghealth"  # its folder under --data-dir

HEALTH_LANGUAGES = ("English", "Chinese", "Spanish", "Hindi")

# Each question: {language: (question, gold answer)}, in HEALTH_LANGUAGES order.
LIVEQA = [
    {
        "English": ("I was diagnosed with type 2 diabetes last month. My doctor started me on metformin but it upsets "
                    "my stomach. Is there anything I can do to make it easier to take?",
                    "Stomach upset is a common side effect of metformin, especially in the first weeks. Taking it with "
                    "meals, starting with a low dose and increasing it slowly, or switching to an extended-release "
                    "tablet can help. Talk to your doctor before changing how you take it."),
        "Chinese": ("我上个月被诊断出患有2型糖尿病。医生让我服用二甲双胍，"
                    "但它让我胃不舒服。有什么办法能让我更容易服用吗？",
                    "胃部不适是二甲双胍的常见副作用，尤其是在最初几周。随餐服用、从小剂量开始并慢慢增加，或改用缓释片都可能有帮助。"
                    "改变服药方式前请先咨询医生。"),
        "Spanish": ("El mes pasado me diagnosticaron diabetes tipo 2. Mi médico me recetó metformina, pero me "
                    "sienta mal al estómago. ¿Hay algo que pueda hacer para tolerarla mejor?",
                    "Las molestias de estómago son un efecto secundario frecuente de la metformina, sobre todo en las "
                    "primeras semanas. Tomarla con las comidas, empezar con una dosis baja e ir aumentándola poco a "
                    "poco o cambiar a un comprimido de liberación prolongada puede ayudar. Consulte a su médico antes "
                    "de cambiar la forma de tomarla."),
        "Hindi": ("पिछले महीने मुझे टाइप 2 डायबिटीज़ का पता चला। मेरे डॉक्टर ने मुझे मेटफॉर्मिन दी है, लेकिन इससे मेरा पेट "
                  "खराब हो जाता है। क्या इसे लेना आसान बनाने के लिए मैं कुछ कर सकता हूँ?",
                  "पेट खराब होना मेटफॉर्मिन का एक आम दुष्प्रभाव है, खासकर शुरुआती हफ्तों में। इसे भोजन के साथ लेना, कम खुराक से "
                  "शुरू करके धीरे-धीरे बढ़ाना, या एक्सटेंडेड-रिलीज़ गोली पर बदलना मदद कर सकता है। इसे लेने का तरीका बदलने से "
                  "पहले अपने डॉक्टर से बात करें।"),
    },
    {
        "English": ("My father has had a cough for three weeks and gets short of breath when he climbs stairs. He "
                    "smoked for thirty years. What tests should he ask for?",
                    "A cough that lasts more than three weeks in a long-time smoker should be checked by a doctor. "
                    "Common tests include a chest X-ray, spirometry to measure how well the lungs work, and sometimes "
                    "a CT scan of the chest."),
        "Chinese": ("我父亲咳嗽已经三个星期了，爬楼梯时会气短。他吸烟三十年了。他应该要求做哪些检查？",
                    "长期吸烟者咳嗽超过三周应该去看医生。常见的检查包括胸部X光、测量肺功能的肺活量测定，有时还包括胸部CT扫描。"),
        "Spanish": ("Mi padre lleva tres semanas con tos y se queda sin aliento cuando sube escaleras. Fumó durante "
                    "treinta años. ¿Qué pruebas debería pedir?",
                    "Una tos que dura más de tres semanas en un fumador de muchos años debe revisarla un médico. Las "
                    "pruebas habituales son una radiografía de tórax, una espirometría para medir la función pulmonar "
                    "y, a veces, una tomografía computarizada del tórax."),
        "Hindi": ("मेरे पिता को तीन हफ्तों से खांसी है और सीढ़ियाँ चढ़ते समय उनकी साँस फूल जाती है। उन्होंने तीस साल तक "
                  "धूम्रपान किया। उन्हें कौन-से टेस्ट करवाने चाहिए?",
                  "लंबे समय से धूम्रपान करने वाले व्यक्ति की तीन हफ्तों से ज़्यादा चलने वाली खांसी की जाँच डॉक्टर से करवानी "
                  "चाहिए। आम जाँचों में छाती का एक्स-रे, फेफड़ों की कार्यक्षमता मापने के लिए स्पाइरोमेट्री, और कभी-कभी छाती "
                  "का सीटी स्कैन शामिल है।"),
    },
    {
        "English": ("What is shingles, and can I catch it from my grandson who has chickenpox?",
                    "Shingles is a painful rash caused by the varicella-zoster virus, the same virus that causes "
                    "chickenpox, when it becomes active again years after the first infection. You cannot catch "
                    "shingles from someone with chickenpox, but if you never had chickenpox you can catch chickenpox "
                    "from them."),
        "Chinese": ("什么是带状疱疹？我会被患水痘的孙子传染吗？",
                    "带状疱疹是一种疼痛的皮疹，由水痘-带状疱疹病毒引起，这种病毒也会引起水痘，它会在初次感染多年后重新活跃。"
                    "你不会从水痘患者那里感染带状疱疹，但如果你从未得过水痘，可能会被传染水痘。"),
        "Spanish": ("¿Qué es el herpes zóster y me lo puede contagiar mi nieto, que tiene varicela?",
                    "El herpes zóster es una erupción dolorosa causada por el virus de la varicela-zóster, el mismo "
                    "que causa la varicela, cuando se reactiva años después de la primera infección. No se puede "
                    "contraer herpes zóster de alguien con varicela, pero si nunca ha tenido varicela, sí puede "
                    "contagiarse de varicela."),
        "Hindi": ("शिंगल्स (हर्पीस ज़ोस्टर) क्या है, और क्या यह मुझे अपने पोते से हो सकता है जिसे चिकनपॉक्स है?",
                  "शिंगल्स एक दर्दनाक चकत्ता है जो वैरिसेला-ज़ोस्टर वायरस से होता है, वही वायरस जो चिकनपॉक्स करता है, जब वह "
                  "पहले संक्रमण के वर्षों बाद फिर से सक्रिय हो जाता है। चिकनपॉक्स वाले व्यक्ति से शिंगल्स नहीं होता, लेकिन "
                  "अगर आपको कभी चिकनपॉक्स नहीं हुआ है तो आपको उनसे चिकनपॉक्स हो सकता है।"),
    },
    {
        # Empty in English, as two questions of the released LiveQA are.
        "English": ("",
                    "Most broken wrists heal in six to eight weeks, but older adults may need several months of "
                    "physical therapy to regain full strength and movement."),
        "Chinese": ("老年人手腕骨折后需要多长时间才能恢复？",
                    "大多数手腕骨折在六到八周内愈合，但老年人可能需要几个月的物理治疗才能完全恢复力量和活动能力。"),
        "Spanish": ("¿Cuánto tarda en recuperarse una persona mayor de una fractura de muñeca?",
                    "La mayoría de las fracturas de muñeca se consolidan en seis a ocho semanas, pero las personas "
                    "mayores pueden necesitar varios meses de fisioterapia para recuperar toda la fuerza y el "
                    "movimiento."),
        "Hindi": ("किसी बुज़ुर्ग व्यक्ति को टूटी हुई कलाई से ठीक होने में कितना समय लगता है?",
                  "ज़्यादातर टूटी कलाइयाँ छह से आठ हफ्तों में जुड़ जाती हैं, लेकिन बुज़ुर्गों को पूरी ताकत और गतिशीलता वापस "
                  "पाने के लिए कई महीनों की फिज़ियोथेरेपी की ज़रूरत पड़ सकती है।"),
    },
    {
        "English": ("My ears have been ringing since a loud concert two weeks ago. Will it go away on its own?",
                    "Ringing in the ears (tinnitus) after loud noise often fades within days or weeks. If it lasts "
                    "longer than a few weeks, or comes with hearing loss or dizziness, see a doctor or an "
                    "audiologist."),
        "Chinese": ("两周前听了一场很吵的音乐会后，我的耳朵一直在响。它会自己消失吗？",
                    "噪音后出现的耳鸣通常会在几天或几周内减轻。如果持续超过几周，或伴有听力下降或头晕，请去看医生或听力专家。"),
        "Spanish": ("Me pitan los oídos desde un concierto muy ruidoso hace dos semanas. ¿Se me pasará solo?",
                    "El pitido en los oídos (acúfeno) después de un ruido fuerte suele desaparecer en días o semanas. "
                    "Si dura más de unas semanas o va acompañado de pérdida de audición o mareos, acuda a un médico o "
                    "a un audiólogo."),
        "Hindi": ("दो हफ्ते पहले एक तेज़ आवाज़ वाले कॉन्सर्ट के बाद से मेरे कानों में घंटी जैसी आवाज़ आ रही है। क्या यह "
                  "अपने आप ठीक हो जाएगी?",
                  "तेज़ शोर के बाद कानों में बजने की आवाज़ (टिनिटस) अक्सर कुछ दिनों या हफ्तों में कम हो जाती है। अगर यह कुछ "
                  "हफ्तों से ज़्यादा रहे, या इसके साथ सुनने में कमी या चक्कर आएँ, तो डॉक्टर या ऑडियोलॉजिस्ट को दिखाएँ।"),
    },
    {
        "English": ("Are there foods I should avoid while I am taking warfarin?",
                    "Foods rich in vitamin K, such as kale, spinach and broccoli, can change how warfarin works. You "
                    "do not need to avoid them, but keep the amount you eat steady from week to week, and limit "
                    "alcohol and cranberry juice."),
        "Chinese": ("服用华法林期间有哪些食物需要避免？",
                    "富含维生素K的食物，如羽衣甘蓝、菠菜和西兰花，会影响华法林的作用。你不必完全避免这些食物，但每周的摄入量应保持"
                    "稳定，并限制饮酒和蔓越莓汁。"),
        "Spanish": ("¿Hay alimentos que deba evitar mientras tomo warfarina?",
                    "Los alimentos ricos en vitamina K, como la col rizada, las espinacas y el brócoli, pueden alterar "
                    "el efecto de la warfarina. No hace falta evitarlos, pero mantenga estable la cantidad que come de "
                    "una semana a otra y limite el alcohol y el zumo de arándanos."),
        "Hindi": ("वारफेरिन लेते समय क्या मुझे कुछ खाद्य पदार्थों से बचना चाहिए?",
                  "विटामिन K से भरपूर खाद्य पदार्थ, जैसे केल, पालक और ब्रोकली, वारफेरिन के असर को बदल सकते हैं। इन्हें छोड़ने "
                  "की ज़रूरत नहीं है, लेकिन हर हफ्ते इनकी मात्रा एक जैसी रखें, और शराब व क्रैनबेरी जूस सीमित करें।"),
    },
]  # fmt: skip

MEDICATIONQA = [
    {
        "English": ("how long does ibuprofen stay in your system",
                    "Ibuprofen has a half-life of about two hours, so it is almost completely cleared from the body "
                    "within 24 hours."),
        "Chinese": ("布洛芬在体内会停留多久", "布洛芬的半衰期约为两小时，因此在24小时内几乎会被完全清除出体外。"),
        "Spanish": ("cuánto tiempo permanece el ibuprofeno en el organismo",
                    "El ibuprofeno tiene una vida media de unas dos horas, por lo que se elimina casi por completo del "
                    "organismo en 24 horas."),
        "Hindi": ("आइबुप्रोफेन शरीर में कितने समय तक रहता है",
                  "आइबुप्रोफेन का हाफ-लाइफ लगभग दो घंटे है, इसलिए यह 24 घंटों के भीतर शरीर से लगभग पूरी तरह निकल जाता है।"),
    },
    {
        "English": ("can i take amoxicillin with milk",
                    "Yes. Amoxicillin can be taken with or without food, and milk does not stop it from working."),
        "Chinese": ("阿莫西林可以和牛奶一起服用吗", "可以。阿莫西林可以随餐或空腹服用，牛奶不会影响它的效果。"),
        "Spanish": ("puedo tomar amoxicilina con leche",
                    "Sí. La amoxicilina se puede tomar con o sin alimentos, y la leche no impide que haga efecto."),
        "Hindi": ("क्या मैं अमोक्सिसिलिन दूध के साथ ले सकता हूँ",
                  "हाँ। अमोक्सिसिलिन भोजन के साथ या बिना ली जा सकती है, और दूध इसके असर को नहीं रोकता।"),
    },
    {
        "English": ("what is lisinopril used for",
                    "Lisinopril is used to treat high blood pressure and heart failure, and to improve survival after "
                    "a heart attack."),
        "Chinese": ("赖诺普利是用来治疗什么的", "赖诺普利用于治疗高血压和心力衰竭，并可提高心脏病发作后的存活率。"),
        "Spanish": ("para qué sirve el lisinopril",
                    "El lisinopril se usa para tratar la presión arterial alta y la insuficiencia cardiaca, y para "
                    "mejorar la supervivencia después de un infarto."),
        "Hindi": ("लिसिनोप्रिल किस लिए इस्तेमाल होता है",
                  "लिसिनोप्रिल का उपयोग उच्च रक्तचाप और हार्ट फेल्योर के इलाज के लिए, और दिल के दौरे के बाद जीवित रहने की "
                  "संभावना बढ़ाने के लिए किया जाता है।"),
    },
    {
        "English": ("is it safe to cut a metoprolol succinate tablet in half",
                    "Metoprolol succinate extended-release tablets may be split along the score line, but they should "
                    "not be crushed or chewed."),
        "Chinese": ("把琥珀酸美托洛尔片掰成两半安全吗", "琥珀酸美托洛尔缓释片可以沿刻痕掰开，但不应压碎或咀嚼。"),
        "Spanish": ("es seguro partir por la mitad una pastilla de succinato de metoprolol",
                    "Los comprimidos de liberación prolongada de succinato de metoprolol se pueden partir por la "
                    "ranura, pero no se deben triturar ni masticar."),
        "Hindi": ("क्या मेटोप्रोलोल सक्सिनेट की गोली को आधा काटना सुरक्षित है",
                  "मेटोप्रोलोल सक्सिनेट की एक्सटेंडेड-रिलीज़ गोलियों को निशान वाली रेखा पर तोड़ा जा सकता है, लेकिन उन्हें "
                  "कुचलना या चबाना नहीं चाहिए।"),
    },
    {
        # No English gold answer, as one released MedicationQA question has none.
        "English": ("how much vitamin d should i take a day", ""),
        "Chinese": ("我每天应该补充多少维生素D",
                    "大多数成年人每天需要600到800国际单位（15到20微克）的维生素D；服用更高剂量前请咨询医生。"),
        "Spanish": ("cuánta vitamina D debo tomar al día",
                    "La mayoría de los adultos necesitan entre 600 y 800 unidades internacionales (15 a 20 "
                    "microgramos) de vitamina D al día; consulte a su médico antes de tomar dosis más altas."),
        "Hindi": ("मुझे रोज़ कितना विटामिन डी लेना चाहिए",
                  "ज़्यादातर वयस्कों को रोज़ 600 से 800 अंतरराष्ट्रीय इकाई (15 से 20 माइक्रोग्राम) विटामिन डी की ज़रूरत होती "
                  "है; इससे ज़्यादा खुराक लेने से पहले अपने डॉक्टर से पूछें।"),
    },
    {
        "English": ("what are the side effects of omeprazole",
                    "Common side effects of omeprazole include headache, stomach pain, nausea, diarrhoea and gas. "
                    "Long-term use can lower magnesium and vitamin B12 levels."),
        "Chinese": ("奥美拉唑有哪些副作用",
                    "奥美拉唑的常见副作用包括头痛、胃痛、恶心、腹泻和胀气。长期使用可能会降低镁和维生素B12的水平。"),
        "Spanish": ("cuáles son los efectos secundarios del omeprazol",
                    "Los efectos secundarios frecuentes del omeprazol son dolor de cabeza, dolor de estómago, náuseas, "
                    "diarrea y gases. El uso prolongado puede reducir los niveles de magnesio y de vitamina B12."),
        "Hindi": ("ओमेप्राज़ोल के दुष्प्रभाव क्या हैं",
                  "ओमेप्राज़ोल के आम दुष्प्रभावों में सिरदर्द, पेट दर्द, मतली, दस्त और गैस शामिल हैं। लंबे समय तक इस्तेमाल से "
                  "मैग्नीशियम और विटामिन B12 का स्तर कम हो सकता है।"),
    },
]  # fmt: skip

# (dataset file, question id, answer id) of a negative row whose Chinese answer is left empty
# (a defect of the release: one Chinese candidate is empty).
EMPTY_CHINESE_CANDIDATE = ("LiveQA.csv", 1, 2)


def health_rows(questions: list[dict], file_name: str) -> list[dict]:
    """Five rows per question: its own answer (label 1) first, then four other questions'
    answers (label 0, named by answer_ids). An answer empty in English is never a negative."""
    usable = [j for j, q in enumerate(questions) if q["English"][1]]
    rows = []
    for i, question in enumerate(questions):
        others = [j for j in usable if j != i][:4]
        for j, label in [(i, 1), *((j, 0) for j in others)]:
            row = {"id": str(i), "label": str(label), "answer_ids": str(j)}
            for language in HEALTH_LANGUAGES:
                row[f"question_{language}"] = question[language][0]
                row[f"answer_{language}"] = questions[j][language][1]
            if (file_name, i, j) == EMPTY_CHINESE_CANDIDATE and label == 0:
                row["answer_Chinese"] = ""
            rows.append(row)
    return rows


def write_xlinghealth(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    columns = ["id", "label", "answer_ids"]
    columns += [f"{kind}_{language}" for language in HEALTH_LANGUAGES for kind in ("question", "answer")]
    for file_name, questions in (("LiveQA.csv", LIVEQA), ("MedicationQA.csv", MEDICATIONQA)):
        (folder / file_name).write_text(csv_text(columns, health_rows(questions, file_name)), encoding="utf-8")


def write_fixtures(folder: Path) -> None:
    write_xlinghealth(folder)
    write_upstream_code(folder.parent)  # the authors' prompt code, in its shape (upstream_code.py)
