// Word lists the pair generator builds names from: common Indonesian given names, family names, name
// elements and company words, written by hand from general knowledge of Indonesian naming. They are name
// *parts*, never real people's records; any resemblance of a generated full name to a real person is chance.
//
// Every list is split into parts by `part`: the tuning set is generated from the words at even positions, the
// validation set from every fourth word starting at the fourth, the held-out set from every fourth starting at
// the second. No given name, family name or company word of the held-out set was seen while the rules were tuned.

export type Part = 'tuning' | 'validation' | 'heldOut';

export function part<T>(list: readonly T[], which: Part): T[] {
  const position = (index: number) => (index % 2 === 0 ? 'tuning' : index % 4 === 3 ? 'validation' : 'heldOut');
  return list.filter((_, index) => position(index) === which);
}

/** Men's given names (Javanese, Sundanese, Malay, Arabic-derived, Christian). */
export const MALE_GIVEN = [
  'Budi', 'Agus', 'Andi', 'Rudi', 'Hendra', 'Eko', 'Bambang', 'Joko', 'Slamet', 'Wahyu', 'Dedi', 'Rizky', 'Fajar',
  'Dimas', 'Bayu', 'Arif', 'Irfan', 'Fauzi', 'Ilham', 'Yusuf', 'Hadi', 'Agung', 'Teguh', 'Rahmat', 'Taufik', 'Imam',
  'Heru', 'Yanto', 'Doni', 'Hari', 'Iwan', 'Wawan', 'Asep', 'Ujang', 'Cecep', 'Dadang', 'Aditya', 'Reza', 'Gilang',
  'Galih', 'Bagus', 'Yoga', 'Rendi', 'Anton', 'Kevin', 'Jefri', 'Fikri', 'Hafiz', 'Ridwan', 'Ikhsan', 'Iqbal',
  'Faisal', 'Hasan', 'Umar', 'Lukman', 'Sigit', 'Yudi', 'Tono', 'Dodi', 'Indra', 'Surya', 'Hendro', 'Sugeng',
  'Suparman', 'Sukirman', 'Mulyono', 'Darmawan', 'Firman', 'Fahmi', 'Syahrul', 'Zulkifli', 'Mahmud', 'Rasyid',
  'Rangga', 'Satria', 'Yohanes', 'Petrus', 'Markus', 'Stefanus', 'Antonius', 'Fransiskus', 'Paulus', 'Andreas',
  'Daniel', 'Samuel', 'Benny', 'Hendrik', 'Gregorius', 'Yosua', 'Kornelius', 'Alfian', 'Rizal', 'Johan', 'Krisna',
  'Wisnu', 'Aryo', 'Pandu', 'Nanang', 'Mamat', 'Engkos', 'Dayat', 'Endang', 'Usman', 'Amir', 'Zainal', 'Rafli',
  'Haris', 'Nasir', 'Sahrul', 'Jajang', 'Deden', 'Yayan', 'Koko', 'Robby', 'Ferdi', 'Erwin', 'Edwin', 'Hamdan',
  'Ismail', 'Bonifasius', 'Ignatius', 'Timotius', 'Yakobus', 'Tegar', 'Raka', 'Fadli', 'Ardi', 'Taufan', 'Guntur',
];

/** Women's given names. */
export const FEMALE_GIVEN = [
  'Siti', 'Dewi', 'Rina', 'Dian', 'Fitri', 'Indah', 'Ratna', 'Wulan', 'Yuni', 'Anisa', 'Rahma', 'Mega', 'Novi',
  'Lina', 'Nia', 'Tari', 'Yanti', 'Susi', 'Nining', 'Euis', 'Neneng', 'Imas', 'Lilis', 'Rika', 'Vina', 'Tika',
  'Maya', 'Rini', 'Santi', 'Desi', 'Lia', 'Mira', 'Intan', 'Citra', 'Ratih', 'Kartika', 'Melati', 'Puspita', 'Anggi',
  'Febri', 'Ika', 'Yulia', 'Sumarni', 'Tuti', 'Ida', 'Nurhayati', 'Fatimah', 'Aisyah', 'Khadijah', 'Zahra',
  'Nabila', 'Salsabila', 'Aulia', 'Amalia', 'Rizka', 'Diah', 'Kurnia', 'Veronika', 'Maria', 'Theresia', 'Agnes',
  'Yohana', 'Elisabeth', 'Monika', 'Kristina', 'Natalia', 'Margaretha', 'Sekar', 'Laras', 'Ayu', 'Nurul',
  'Hesti', 'Erna', 'Evi', 'Irma', 'Yeni', 'Reni', 'Wiwik', 'Sulastri', 'Sumiati', 'Rohani', 'Zubaidah', 'Halimah',
  'Mariam', 'Suci', 'Tiara', 'Cindy', 'Jessica', 'Angelina', 'Clara', 'Stefani', 'Bunga', 'Kirana', 'Nadia',
  'Putri', 'Widya', 'Asih', 'Sariah', 'Ningrum', 'Hana', 'Lestiana', 'Fransiska', 'Oktavia', 'Septiana', 'Nova',
];

/** Second and last names of men: Javanese, Sundanese and Arabic-derived surnames and patronymic-like words. */
export const MALE_FAMILY = [
  'Santoso', 'Wibowo', 'Prasetyo', 'Nugroho', 'Susanto', 'Hidayat', 'Setiawan', 'Kurniawan', 'Saputra', 'Pratama',
  'Gunawan', 'Hartono', 'Suryadi', 'Siswanto', 'Purnomo', 'Haryanto', 'Wahyudi', 'Firmansyah', 'Hermawan',
  'Permana', 'Ramadhan', 'Maulana', 'Hakim', 'Syahputra', 'Utomo', 'Sulistyo', 'Sasongko', 'Wicaksono', 'Wibisono',
  'Sudrajat', 'Kusnadi', 'Mulyadi', 'Irawan', 'Sutanto', 'Hidayatullah', 'Ardiansyah', 'Rahman', 'Fadillah',
  'Nurdin', 'Aminuddin', 'Syaifuddin', 'Setiadi', 'Sugiarto', 'Wijayanto', 'Suharto', 'Hendrawan', 'Budiman',
  'Kuswanto', 'Riyadi', 'Supriyadi', 'Suyanto', 'Sudarsono', 'Prabowo', 'Yulianto', 'Hariyadi', 'Cahyono',
  'Triyono', 'Sutrisno', 'Mardiyanto', 'Darmadi', 'Efendi', 'Iskandar', 'Kurniadi', 'Adiputra', 'Nugraha',
  'Sopandi', 'Saepudin', 'Hermansyah', 'Rosyid', 'Mubarok', 'Fauzan', 'Ashari', 'Subagyo', 'Tjahjadi', 'Kusuma',
  'Setiabudi', 'Wirawan', 'Handoko', 'Rusdianto', 'Purwanto', 'Hardiansyah', 'Anwar', 'Bahri', 'Harun',
];

/** Second and last names of women. */
export const FEMALE_FAMILY = [
  'Lestari', 'Handayani', 'Rahmawati', 'Wulandari', 'Safitri', 'Anggraini', 'Permatasari', 'Puspitasari',
  'Kusumawati', 'Maharani', 'Purnamasari', 'Susanti', 'Yulianti', 'Wahyuni', 'Rahayu', 'Astuti', 'Ningsih',
  'Kartikasari', 'Novitasari', 'Oktaviani', 'Rahmadani', 'Fitriani', 'Herlina', 'Marlina', 'Setiawati',
  'Kurniasih', 'Suryani', 'Pertiwi', 'Utami', 'Hapsari', 'Damayanti', 'Sulistyowati', 'Nuraini', 'Febriani',
  'Andriani', 'Agustina', 'Susilawati', 'Kusumawardhani', 'Prameswari', 'Anjani', 'Ramadhani', 'Amelia',
  'Nurjanah', 'Hasanah', 'Mulyani', 'Sriwahyuni', 'Indrawati', 'Purwaningsih', 'Widiastuti', 'Apriliani',
  'Cahyani', 'Lestiani', 'Ariani', 'Kusumaningrum', 'Rahmadhani', 'Setyaningsih', 'Dwiyanti', 'Handini',
  'Khairunnisa', 'Azizah', 'Zahara', 'Aryani', 'Wijayanti', 'Pramesti', 'Wardhani', 'Safira', 'Kamila',
];

/** Family names that do not change with gender: Batak, Minahasa, Ambon, NTT, Chinese-Indonesian. */
export const CLAN_NAMES = [
  'Siregar', 'Nasution', 'Harahap', 'Lubis', 'Simanjuntak', 'Sitompul', 'Hutapea', 'Sinaga', 'Pardede',
  'Manurung', 'Panjaitan', 'Situmorang', 'Tambunan', 'Silalahi', 'Ginting', 'Tarigan', 'Sembiring', 'Purba',
  'Damanik', 'Saragih', 'Pohan', 'Hutagalung', 'Simatupang', 'Sihombing', 'Napitupulu', 'Pasaribu', 'Marpaung',
  'Rangkuti', 'Daulay', 'Batubara', 'Wowor', 'Rumondor', 'Tumbelaka', 'Lumenta', 'Pangemanan', 'Sondakh',
  'Mandagi', 'Kaunang', 'Rondonuwu', 'Pattiasina', 'Latuconsina', 'Sahetapy', 'Tuanakotta', 'Leimena',
  'Pelupessy', 'Matulessy', 'Fanggidae', 'Manafe', 'Tanoto', 'Halim', 'Tanuwijaya', 'Salim', 'Sutedja',
  'Hartanto', 'Gunadi', 'Lumbantobing', 'Sianipar', 'Hasibuan', 'Ritonga', 'Tampubolon', 'Simbolon', 'Pakpahan',
  'Rumagit', 'Lasut', 'Wenas', 'Tuasikal', 'Ohorella', 'Messakh', 'Bessie', 'Taneo', 'Nubatonis',
];

/** Words that thousands of people share: on their own they identify nobody (the generator's judgement, not the matcher's list). */
export const COMMON_NAME_WORDS = new Set([
  'MUHAMMAD', 'AHMAD', 'ABDUL', 'SITI', 'NUR', 'NURUL', 'SRI', 'DEWI', 'PUTRI', 'PUTRA', 'AGUS', 'EKA', 'DWI',
  'TRI', 'ADI', 'AYU', 'MARIA', 'DIAN', 'INDAH', 'FITRI', 'RATNA', 'BUDI', 'SARI', 'PRATAMA', 'SAPUTRA', 'SAPUTRI',
  'LESTARI', 'WIJAYA', 'KUSUMA', 'RAHMAWATI', 'HIDAYAT', 'SETIAWAN', 'KURNIAWAN', 'SANTOSO', 'WAHYUNI',
  'HANDAYANI', 'RAHAYU', 'NINGSIH', 'ANDI', 'DEWA', 'GEDE', 'MADE', 'WAYAN', 'PUTU', 'KETUT', 'NYOMAN', 'KADEK',
  'KOMANG', 'LUH', 'NI', 'I', 'MAJU', 'JAYA', 'ABADI', 'MAKMUR', 'SENTOSA', 'SEJAHTERA', 'MANDIRI', 'BERSAMA',
  'SUMBER', 'BERKAH', 'KARYA', 'UTAMA', 'INDONESIA', 'NUSANTARA', 'MITRA', 'SINAR', 'GLOBAL',
]);

/** Birth-order names of Bali, by order and gender-neutral, with the abbreviations banks use. */
export const BIRTH_ORDER: ReadonlyArray<{ word: string; short: string }> = [
  { word: 'Wayan', short: 'WYN' },
  { word: 'Made', short: 'MD' },
  { word: 'Nyoman', short: 'NYM' },
  { word: 'Ketut', short: 'KT' },
  { word: 'Putu', short: 'PUTU' },
  { word: 'Kadek', short: 'KDK' },
  { word: 'Komang', short: 'KMG' },
  { word: 'Gede', short: 'GD' },
];

/** Balinese given names (the distinguishing part after I/Ni and the birth-order name). */
export const BALINESE_NAMES = [
  'Sudarsana', 'Suardana', 'Sukerta', 'Arimbawa', 'Wirawan', 'Suarjana', 'Adnyana', 'Mahendra', 'Sudiarta',
  'Widiastuti', 'Pradnyani', 'Sekarini', 'Artini', 'Suweta', 'Astawa', 'Sutama', 'Wiguna', 'Parwata', 'Darmayasa',
  'Sukadana', 'Ariawan', 'Sudana', 'Wijana', 'Suarsana', 'Dharmawan', 'Sumerta', 'Budiasa', 'Kariasa', 'Wiratama',
  'Yudistira', 'Sukmawati', 'Suartini', 'Ariani', 'Puspadewi', 'Sulastini', 'Widnyana', 'Suprapta', 'Antara',
];

/** Chinese-Indonesian names: a one-syllable surname and a two-syllable given name. */
export const CHINESE_SURNAMES = ['Tan', 'Lim', 'Oey', 'Liem', 'Kwee', 'Go', 'The', 'Ong', 'Tjoa', 'Lie', 'Goh', 'Kho', 'Sie', 'Njoo', 'Tjan', 'Han'];
export const CHINESE_SYLLABLES = [
  'Siok', 'Hwa', 'Swie', 'Hong', 'Boen', 'Kim', 'Lan', 'Nio', 'Kian', 'Seng', 'Giok', 'Bwee', 'Liong', 'Sioe', 'Hok',
  'Tjoan', 'Ing', 'Lay', 'Tjhing', 'Bing', 'Djin', 'Kiat', 'Hian', 'Tek', 'Joe', 'Hoo', 'Wan', 'Sian', 'Gwat', 'Khing',
];

/** Arabic first elements that take the article: Nurul, Syamsul, Khairul... The stem and the joining forms seen in Indonesia. */
export const JOINING_STEMS: ReadonlyArray<{ stem: string; joined: string; bare: string }> = [
  { stem: 'NUR', joined: 'Nurul', bare: 'Nur' },
  { stem: 'SYAMS', joined: 'Syamsul', bare: 'Syamsu' },
  { stem: 'KHAIR', joined: 'Khairul', bare: 'Khair' },
  { stem: 'SAIF', joined: 'Saiful', bare: 'Saif' },
  { stem: 'ZAIN', joined: 'Zainul', bare: 'Zain' },
  { stem: 'FATH', joined: 'Fathul', bare: 'Fath' },
  { stem: 'AIN', joined: 'Ainul', bare: 'Ain' },
  { stem: 'JAMAL', joined: 'Jamalul', bare: 'Jamal' },
  { stem: 'AMIR', joined: 'Amirul', bare: 'Amir' },
  { stem: 'NASR', joined: 'Nasrul', bare: 'Nasr' },
  { stem: 'MIFTAH', joined: 'Miftahul', bare: 'Miftah' },
  { stem: 'HABIB', joined: 'Habibur', bare: 'Habib' },
];
/** Words that follow a joining form ("Nurul Huda", "Syamsul Arifin"). */
export const JOINING_FOLLOWERS = [
  'Huda', 'Hidayah', 'Aini', 'Arifin', 'Bahri', 'Anwar', 'Umam', 'Fikri', 'Azmi', 'Abidin', 'Fuad', 'Islam',
  'Yaqin', 'Ulum', 'Munir', 'Jannah', 'Izzah', 'Hakim', 'Rizal', 'Rahman', 'Ihsan', 'Falah', 'Mubin', 'Amin',
];

/** Second elements after Abdul ("servant of ..."). */
export const ABDUL_NAMES = ['Rahman', 'Karim', 'Kadir', 'Aziz', 'Hamid', 'Majid', 'Latif', 'Wahab', 'Gofur', 'Rozak', 'Malik', 'Halim', 'Jalil', 'Basir', 'Salam', 'Muis', 'Rasyid', 'Hadi'];

/** Company name words and legal forms. */
export const COMPANY_WORDS = [
  'Sinar', 'Jaya', 'Abadi', 'Makmur', 'Sentosa', 'Sejahtera', 'Mandiri', 'Bersama', 'Berkah', 'Maju', 'Karya',
  'Utama', 'Nusantara', 'Mitra', 'Sumber', 'Rejeki', 'Cahaya', 'Surya', 'Bintang', 'Mulia', 'Prima', 'Perkasa',
  'Gemilang', 'Lestari', 'Agung', 'Indah', 'Logistik', 'Teknik', 'Persada', 'Sukses', 'Harapan', 'Bangsa',
  'Artha', 'Kencana', 'Samudra', 'Buana', 'Cipta', 'Graha', 'Daya', 'Tirta', 'Bumi', 'Raya', 'Kreasi', 'Solusi',
  'Digital', 'Niaga', 'Pangan', 'Tani', 'Elektrik', 'Konstruksi', 'Medika', 'Farma', 'Transportasi', 'Pratama',
];
/** Distinctive first words of company names (not generic trade words). */
export const COMPANY_HEADS = [
  'Anugerah', 'Dwi', 'Tri', 'Catur', 'Panca', 'Eka', 'Putra', 'Citra', 'Wahana', 'Griya', 'Aneka', 'Duta',
  'Bina', 'Mega', 'Delta', 'Alfa', 'Omega', 'Garuda', 'Rajawali', 'Merpati', 'Kartika', 'Mustika', 'Permata',
  'Mutiara', 'Intan', 'Kirana', 'Adhi', 'Wijaya', 'Santika', 'Pelangi', 'Semesta', 'Lintas', 'Tunas', 'Fajar',
];
export const LEGAL_FORMS = ['PT', 'CV', 'UD', 'Koperasi', 'Yayasan', 'PD', 'KSP'];

/** Titles and degrees as written on forms, and as banks write them. */
export const LEADING_TITLES = ['H.', 'Hj.', 'Dr.', 'dr.', 'Drs.', 'Dra.', 'Ir.', 'Prof.', 'Ny.', 'Tn.', 'Bpk.', 'Ibu', 'Sdr.', 'KH.', 'drg.', 'Ust.'];
export const DEGREES: ReadonlyArray<{ form: string; bank: string }> = [
  { form: 'S.E.', bank: 'SE' },
  { form: 'S.H.', bank: 'SH' },
  { form: 'S.Kom.', bank: 'S KOM' },
  { form: 'S.T.', bank: 'ST' },
  { form: 'S.Pd.', bank: 'SPD' },
  { form: 'S.Pd.I', bank: 'S PD I' },
  { form: 'S.Ag.', bank: 'SAG' },
  { form: 'S.Sos.', bank: 'S SOS' },
  { form: 'S.Kep.', bank: 'SKEP' },
  { form: 'S.Farm.', bank: 'SFARM' },
  { form: 'M.M.', bank: 'MM' },
  { form: 'M.Si.', bank: 'MSI' },
  { form: 'M.Pd.', bank: 'M PD' },
  { form: 'A.Md.', bank: 'AMD' },
  { form: 'A.Md.Keb.', bank: 'AMD KEB' },
  { form: 'S.Kom., M.T.', bank: 'SKOM MT' },
  { form: 'S.H., M.H.', bank: 'SH MH' },
  { form: 'SKM', bank: 'SKM' },
  { form: 'Lc.', bank: 'LC' },
  { form: 'M.Kes.', bank: 'MKES' },
];

/**
 * Real name pairs one letter apart: both are names people carry, so from the strings alone nobody can say
 * whether one is a typo of the other or another person (gender endings, consonant swaps, dropped vowels).
 */
export const NAME_MINIMAL_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['Yulianto', 'Yulianti'], ['Susanto', 'Susanti'], ['Hariyanto', 'Hariyanti'], ['Dewanto', 'Dewanti'],
  ['Saputra', 'Saputri'], ['Putra', 'Putri'], ['Wahyudi', 'Wahyuni'], ['Sugiarto', 'Sugianto'], ['Mulyani', 'Mulyati'],
  ['Amelia', 'Amalia'], ['Yuliana', 'Yuliani'], ['Sutrisno', 'Sutrisna'], ['Marlina', 'Marliana'], ['Herlina', 'Herliana'],
  ['Febrina', 'Febriana'], ['Ernawati', 'Erawati'], ['Sugiharto', 'Sugiarto'], ['Dina', 'Dini'], ['Yoga', 'Yogi'],
  ['Rina', 'Rini'], ['Dedi', 'Dede'], ['Andi', 'Ardi'], ['Hendra', 'Hendri'], ['Indra', 'Indri'], ['Yanti', 'Yanto'],
  ['Santi', 'Santo'], ['Rudi', 'Rusdi'], ['Hadi', 'Hardi'], ['Adi', 'Ali'], ['Eko', 'Eka'],
  ['Joko', 'Jono'], ['Lina', 'Lena'], ['Rizki', 'Rifki'], ['Fitri', 'Fitria'], ['Hotma', 'Hotman'],
  ['Kevin', 'Kelvin'], ['Permata', 'Permana'], ['Hermanto', 'Harmanto'], ['Sumarni', 'Sumarti'], ['Suryadi', 'Suryani'],
  ['Indrawati', 'Indarwati'], ['Ratna', 'Retna'], ['Nanda', 'Randa'],
  ['Tina', 'Tini'], ['Arif', 'Ari'], ['Novi', 'Nova'], ['Hidayat', 'Hidayati'], ['Rahmadani', 'Ramadani'],
];

/** Old (pre-1972) spellings of name words, as the older generation's identity cards still have them. */
export const OLD_SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ['Sukarno', 'Soekarno'], ['Suharto', 'Soeharto'], ['Joko', 'Djoko'], ['Cahyo', 'Tjahjo'], ['Cahyono', 'Tjahjono'],
  ['Syamsul', 'Sjamsul'], ['Nyoman', 'Njoman'], ['Yusuf', 'Jusuf'], ['Yulianto', 'Julianto'], ['Susilo', 'Soesilo'],
  ['Sutrisno', 'Soetrisno'], ['Purnomo', 'Poernomo'], ['Cipto', 'Tjipto'], ['Juanda', 'Djuanda'], ['Wahyudi', 'Wahjudi'],
  ['Utomo', 'Oetomo'], ['Haryono', 'Harjono'], ['Suwarni', 'Soewarni'], ['Kusnadi', 'Koesnadi'], ['Sujatmiko', 'Soedjatmiko'],
  ['Sukoco', 'Soekotjo'], ['Hadiwijoyo', 'Hadiwidjojo'], ['Nyoto', 'Njoto'], ['Cokro', 'Tjokro'], ['Sudirman', 'Soedirman'],
  ['Supriyadi', 'Soeprijadi'], ['Suyanto', 'Soejanto'], ['Wijaya', 'Widjaja'], ['Suryadi', 'Soerjadi'], ['Jayadi', 'Djajadi'],
  ['Subagyo', 'Soebagjo'], ['Sudarsono', 'Soedarsono'], ['Mulyono', 'Moeljono'], ['Budiono', 'Boediono'], ['Yuwono', 'Joewono'],
  ['Khusnul', 'Chusnul'], ['Khotimah', 'Chotimah'], ['Rahmat', 'Rachmat'], ['Ahmad', 'Achmad'], ['Khairul', 'Chairul'],
  ['Sumarjo', 'Soemardjo'], ['Tjahjadi', 'Cahyadi'], ['Suparno', 'Soeparno'], ['Sunaryo', 'Soenarjo'], ['Cahya', 'Tjahja'],
];

/** Everyday spellings by ear: the form written, the form on the identity card. */
export const EVERYDAY_VARIANTS: ReadonlyArray<readonly [string, string]> = [
  ['Rizky', 'Rizki'], ['Rizky', 'Rizqi'], ['Dedi', 'Dedy'], ['Yuli', 'Yuly'], ['Hendy', 'Hendi'], ['Fauzy', 'Fauzi'],
  ['Hasan', 'Hassan'], ['Annisa', 'Anisa'], ['Stephanie', 'Stefani'], ['Steven', 'Stefen'], ['Faizal', 'Faisal'],
  ['Novi', 'Nofi'], ['Evi', 'Efi'], ['Zainal', 'Zaenal'], ['Ulfa', 'Ulfah'], ['Taufik', 'Taufiq'], ['Ramadhan', 'Ramadan'],
  ['Dyah', 'Diah'], ['Sofyan', 'Sofian'], ['Fatimah', 'Fatima'], ['Saiful', 'Syaiful'], ['Yosef', 'Joseph'],
  ['Kristina', 'Christina'], ['Yohanes', 'Johannes'], ['Aleks', 'Alex'], ['Dzikri', 'Zikri'], ['Syarifah', 'Sarifah'],
  ['Teddy', 'Tedi'], ['Prasetyo', 'Prasetio'], ['Setiawan', 'Setyawan'], ['Andriani', 'Andriyani'], ['Haryanto', 'Hariyanto'],
  ['Anggraini', 'Anggraeni'], ['Lestari', 'Lestary'], ['Mardiyanto', 'Mardianto'],
  ['Fadillah', 'Fadilah'], ['Nurjanah', 'Nurjannah'], ['Philip', 'Filip'], ['Rifqi', 'Rifki'], ['Zulkifli', 'Zulkifly'],
  ['Yusuf', 'Yusup'], ['Ikhsan', 'Ihsan'], ['Khadijah', 'Hadijah'], ['Vina', 'Fina'], ['Hafiz', 'Hafidz'],
];
