// Hand-written tuning pairs (issue 5, extended in issue 13): the rules are tuned on these and on the
// generated tuning half. Labels follow labelled-pair.ts: what a careful payments person concludes from the two
// strings alone.

import { bankCut, pairList } from './labelled-pair.js';

const { pairs, same, different, review } = pairList();

// --- case, whitespace, punctuation, diacritics -------------------------------------------------
same('basic', 'Budi Santoso', 'BUDI SANTOSO');
same('basic', '  siti   aminah ', 'SITI AMINAH');
same('basic', 'Dewi Lestari', 'DEWI  LESTARI');
same('basic', "Ma'ruf Amin", 'MARUF AMIN');
same('basic', 'Nu’man Hakim', 'NUMAN HAKIM');
same('basic', 'Rudi Hartono, ', 'RUDI HARTONO');
same('basic', 'Siti Nur-Halimah', 'SITI NUR HALIMAH');
same('basic', 'André Wijaya', 'ANDRE WIJAYA');
same('basic', 'Zoë Anastasia Putri', 'ZOE ANASTASIA PUTRI');
same('basic', 'José Fernandes da Costa', 'JOSE FERNANDES DA COSTA');
same('basic', 'Yohanes Pattiasina.', 'YOHANES PATTIASINA');
same('basic', "Ni'mah Rosyidah", 'NIMAH ROSYIDAH');
same('basic', 'Ahmad Dahlan', 'AHMAD  DAHLAN ');
same('basic', 'Hotma Uli Sitompul', 'HOTMA ULI SITOMPUL');
same('basic', 'Kristina Br. Ginting', 'KRISTINA BR GINTING');
same('basic', 'Sri Mulyani Indrawati', 'SRI MULYANI INDRAWATI');
same('basic', 'rahmat hidayat', 'RAHMAT HIDAYAT');
same('basic', 'Wahyu Nugroho', 'WAHYU NUGROHO');
same('basic', 'Yulius Wenda', 'YULIUS WENDA');
same('basic', 'Maria Goreti Tumbelaka', 'MARIA GORETI TUMBELAKA');
same('basic', 'Eko Prasetyo', 'EKO PRASETYO');
same('basic', 'Asep Saepudin', 'ASEP SAEPUDIN');
same('basic', 'Fransiskus Xaverius Lodo', 'FRANSISKUS XAVERIUS LODO');
same('basic', 'JOKO WIDODO', 'JOKO WIDODO');
same('basic', 'Parlindungan Harahap', 'PARLINDUNGAN HARAHAP');
same('basic', 'Euis Komariah', 'EUIS KOMARIAH');
same('basic', 'Cecep Supriatna', 'CECEP SUPRIATNA');
same('basic', 'Ujang Sopandi', 'UJANG SOPANDI');
same('basic', 'Tiurma Nainggolan', 'TIURMA NAINGGOLAN');
same('basic', 'Kadek Wirawan', 'KADEK WIRAWAN');
same('basic', 'Yuliana Sari Pertiwi', 'YULIANA SARI PERTIWI');
same('basic', 'Ikhsan Maulana', 'IKHSAN MAULANA');
same('basic', 'Indah Permatasari', 'INDAH PERMATASARI');
same('basic', 'Gregorius Tanamal', 'GREGORIUS TANAMAL');

// --- titles and degrees ----------------------------------------------------------------------------
same('titles', 'H. Ahmad Fauzi', 'AHMAD FAUZI');
same('titles', 'Hj. Siti Aminah', 'SITI AMINAH');
same('titles', 'Siti Aminah', 'HJ SITI AMINAH');
same('titles', 'KH. Abdul Hamid', 'ABDUL HAMID');
same('titles', 'Dr. Budi Gunawan', 'DR BUDI GUNAWAN');
same('titles', 'dr. Ratna Sari Dewi', 'RATNA SARI DEWI');
same('titles', 'Drs. Bambang Sugiarto', 'BAMBANG SUGIARTO');
same('titles', 'Dra. Endang Sulistyowati', 'DRA ENDANG SULISTYOWATI');
same('titles', 'Ir. Joko Santoso', 'IR JOKO SANTOSO');
same('titles', 'Prof. Dr. Ir. Sutanto Wibowo, M.Sc.', 'SUTANTO WIBOWO');
same('titles', 'Ny. Maria Ulfa', 'MARIA ULFA');
same('titles', 'Tn. Hendra Gunawan', 'HENDRA GUNAWAN');
same('titles', 'Bpk. Slamet Riyadi', 'SLAMET RIYADI');
same('titles', 'Ibu Sri Wahyuni', 'SRI WAHYUNI');
same('titles', 'Sdr. Yoga Pratama', 'YOGA PRATAMA');
same('titles', 'Dewi Anggraini, S.E.', 'DEWI ANGGRAINI SE');
same('titles', 'Rudi Hartono, S.H.', 'RUDI HARTONO');
same('titles', 'Andi Saputra S.Kom', 'ANDI SAPUTRA S KOM');
same('titles', 'Eko Wahyudi, S.T.', 'EKO WAHYUDI ST');
same('titles', 'Nurul Hidayah, S.Pd.', 'NURUL HIDAYAH SPD');
same('titles', 'Ahmad Zaini, S.Pd.I', 'AHMAD ZAINI S PD I');
same('titles', 'Abdul Rozak, S.Ag.', 'ABDUL ROZAK SAG');
same('titles', 'dr. Putri Amelia, S.Ked.', 'PUTRI AMELIA');
same('titles', 'Hendra Wijaya, M.M.', 'HENDRA WIJAYA MM');
same('titles', 'Dr. Bambang Irawan, S.H., M.H.', 'BAMBANG IRAWAN SH MH');
same('titles', 'Ir. Agus Salim, M.T.', 'AGUS SALIM');
same('titles', 'Dian Permata Sari, M.Sc.', 'DIAN PERMATA SARI MSC');
same('titles', 'Rina Marlina, M.Pd.', 'RINA MARLINA M PD');
same('titles', 'Yuliana Putri, A.Md.', 'YULIANA PUTRI AMD');
same('titles', 'Siti Rohmah, A.Md.Keb', 'SITI ROHMAH AMD KEB');
same('titles', 'Ns. Fitri Handayani, S.Kep.', 'FITRI HANDAYANI SKEP NS');
same('titles', 'H.M. Jusuf Hamka', 'MUHAMMAD JUSUF HAMKA');
same('titles', 'Drs. H. Asep Saefullah, M.Si', 'H ASEP SAEFULLAH');
same('titles', 'Wahyu Hidayat S.Sos', 'WAHYU HIDAYAT S.SOS');
same('titles', 'Lukman Hakim, Lc.', 'LUKMAN HAKIM LC');
same('titles', 'Apt. Dina Mariana, S.Farm.', 'DINA MARIANA SFARM');
same('titles', 'Sri Rejeki SE MM', 'SRI REJEKI');
same('titles', 'Bapak Sugeng Riyanto', 'SUGENG RIYANTO');
same('titles', 'drg. Anita Kusumawati', 'DRG ANITA KUSUMAWATI');
same('titles', 'Tri Wahyuni, SKM', 'TRI WAHYUNI');
same('titles', 'Agustinus Hadi, S.Th.', 'AGUSTINUS HADI STH');
same('titles', 'Irwan Setiadi, S.I.Kom', 'IRWAN SETIADI SIKOM');
same('titles', 'Hj. Nurhayati, S.Pd., M.Pd.', 'HJ NURHAYATI');
same('titles', 'Dr. dr. Lukas Tanjung, Sp.PD', 'LUKAS TANJUNG');
same('titles', 'Sdri. Melati Kusuma', 'MELATI KUSUMA');
different('titles', 'Dr. Budi Gunawan', 'DR BUDI HARTANTO');
different('titles', 'Hj. Siti Aminah', 'HJ SITI MAEMUNAH');
different('titles', 'Ir. Joko Santoso', 'IR JOKO SUSANTO');
different('titles', 'H. Ahmad Fauzi', 'H AHMAD FAUZAN');
different('titles', 'Drs. Bambang Sugiarto, M.M.', 'DRS SUGENG RIYANTO MM');
different('titles', 'Prof. Dr. Sutanto Wibowo', 'PROF DR BAMBANG WIBOWO');

// --- bank-side truncation --------------------------------------------------------------------------
same('truncation', 'Muhammad Rizky Pratama Saputra', 'MUHAMMAD RIZKY PRATAMA SAPUT');
same('truncation', 'Ni Luh Putu Ayu Sri Wahyuni', bankCut('NI LUH PUTU AYU SRI WAHYUNI', 25)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'Fransiskus Xaverius Nggolo Lodo', bankCut('FRANSISKUS XAVERIUS NGGOLO LODO', 25));
same('truncation', 'Raden Ajeng Siti Rahayu Kusumaningrum', bankCut('RADEN AJENG SITI RAHAYU KUSUMANINGRUM', 30)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'Christina Margaretha Simanjuntak', bankCut('CHRISTINA MARGARETHA SIMANJUNTAK', 25));
same('truncation', 'Bambang Sugiarto Wicaksono', bankCut('BAMBANG SUGIARTO WICAKSONO', 20));
same('truncation', 'Hj. Siti Nurhaliza Rahmawati, S.Pd.', bankCut('SITI NURHALIZA RAHMAWATI', 20)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'Muhammad Alfian Nur Hidayatullah', bankCut('MUHAMMAD ALFIAN NUR HIDAYATULLAH', 25)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'Yohanes Krisostomus Pattiasina', bankCut('YOHANES KRISOSTOMUS PATTIASINA', 20));
same('truncation', 'Dwi Cahyono Adi Nugroho', bankCut('DWI CAHYONO ADI NUGROHO', 20)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'Tiurma Romauli Nainggolan', bankCut('TIURMA ROMAULI NAINGGOLAN', 20));
same('truncation', 'Theresia Wulandari Kusumawardhani', bankCut('THERESIA WULANDARI KUSUMAWARDHANI', 30));
same('truncation', 'Ahmad Syaifullah Al Mubarok', bankCut('AHMAD SYAIFULLAH AL MUBAROK', 25));
same('truncation', 'Agustinus Bernardus Situmorang', bankCut('AGUSTINUS BERNARDUS SITUMORANG', 25));
same('truncation', 'Kadek Dwi Ayu Pramesti Dewi', bankCut('KADEK DWI AYU PRAMESTI DEWI', 20)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'Raden Mas Bagus Hendro Kusumo Wibowo', bankCut('RADEN MAS BAGUS HENDRO KUSUMO WIBOWO', 30));
same('truncation', 'Lim Swie Hong Gunawan Santoso', bankCut('LIM SWIE HONG GUNAWAN SANTOSO', 25));
same('truncation', 'Dr. H. Muhammad Yusuf Kurniawan', bankCut('DR H MUHAMMAD YUSUF KURNIAWAN', 25)); // issue 26: same by the names dev set's labelling rules
same('truncation', 'PT Sinar Mas Agro Resources and Technology', bankCut('PT SINAR MAS AGRO RESOURCES AND TECHNOLOGY', 30));
review('truncation', 'CV Berkah Jaya Abadi Sentosa', bankCut('CV BERKAH JAYA ABADI SENTOSA', 25));
same('truncation', 'Gusti Ayu Made Sekarini Pratiwi', bankCut('GUSTI AYU MADE SEKARINI PRATIWI', 30));
same('truncation', 'Stefanus Hendrawan Setiabudi', bankCut('STEFANUS HENDRAWAN SETIABUDI', 25));
same('truncation', 'Nurul Fadhilah Ramadhani Putri', bankCut('NURUL FADHILAH RAMADHANI PUTRI', 25));
same('truncation', 'Veronika Anggraeni Wulandari', bankCut('VERONIKA ANGGRAENI WULANDARI', 25));
same('truncation', 'Bonifasius Kristianto Wibisono', bankCut('BONIFASIUS KRISTIANTO WIBISONO', 28));
same('truncation', 'Maximilianus Kurniawan Sugiharto', bankCut('MAXIMILIANUS KURNIAWAN SUGIHARTO', 30));
different('truncation', 'Muhammad Rizky Pratama Saputra', bankCut('MUHAMMAD RIZKY PRATAMA PUTRA ARDIANSYAH', 28));
different('truncation', 'Bambang Sugiarto Wicaksono', bankCut('BAMBANG SUGIARTO WIBISONO', 20));
same('truncation', 'Siti Nurhaliza Rahmawati', bankCut('SITI NURHALIZA RAHMADANI', 20)); // issue 26: same by the names dev set's labelling rules
different('truncation', 'Christina Margaretha Simanjuntak', bankCut('CHRISTINA MARGARETHA SIREGAR', 25));
different('truncation', 'Dwi Cahyono Adi Nugroho', bankCut('DWI CAHYONO ADI SAPUTRO', 20));
// Issue 13: a cut that leaves two distinctive words in full and agrees with everything shown is the same person
// as far as anyone can tell, whoever's name the bank really cut ('KUSUMA' of Kusumawardhani or of Kusumadewi):
// the strings are identical, so the label cannot differ. Where what shows in full is only everyday names
// ('SITI NURHALIZA RAHMA': Rahmawati? Rahmadani?) a person must look.
same('truncation', 'Theresia Wulandari Kusumawardhani', bankCut('THERESIA WULANDARI KUSUMADEWI', 25));
different('truncation', 'Agustinus Bernardus Situmorang', bankCut('AGUSTINUS BUDIMAN SITUMORANG', 25));
different('truncation', 'Stefanus Hendrawan Setiabudi', bankCut('STEFANUS HENDRAWAN SETIAWAN', 25));

// --- Muhammad, Abdul ------------------------------------------------------------------------------
same('muhammad', 'Muhammad Rizky', 'M RIZKY');
same('muhammad', 'Muhammad Fauzi', 'MUHAMAD FAUZI');
same('muhammad', 'Mohammad Hatta', 'MOH HATTA');
same('muhammad', 'Mochamad Ridwan', 'MOCH RIDWAN');
same('muhammad', 'Muhammad Iqbal', 'MUH IQBAL');
same('muhammad', 'Mohd Faisal', 'MUHAMMAD FAISAL');
same('muhammad', 'Much. Arifin', 'MUCHAMMAD ARIFIN');
same('muhammad', 'M. Syaiful Anwar', 'MUHAMMAD SYAIFUL ANWAR');
same('muhammad', 'Mohamad Nasir', 'MOHAMMAD NASIR');
same('muhammad', 'Muhammad Yusuf', 'MOCHAMMAD YUSUF');
same('muhammad', 'Mukhammad Zaenal Arifin', 'MUHAMMAD ZAENAL ARIFIN');
same('muhammad', 'Muhamad Ilham Akbar', 'M ILHAM AKBAR');
same('muhammad', 'Mhd. Rasyid', 'MUHAMMAD RASYID');
same('muhammad', 'Abdul Rahman', 'ABD RAHMAN');
same('muhammad', 'Abd. Kadir Jaelani', 'ABDUL KADIR JAELANI');
same('muhammad', 'Abdurrahman Wahid', 'ABDUL RAHMAN WAHID');
same('muhammad', 'Abdul Gofur', 'ABDUL GHOFUR');
same('muhammad', 'Moch. Nur Hasan', 'MOCHAMAD NUR HASAN');
same('muhammad', 'Mohammed Fikri', 'MUHAMMAD FIKRI');
same('muhammad', 'Muhammad Nur Ichsan', 'MUHAMMAD NUR IKHSAN');
same('muhammad', 'M. Hasbi Ash Shiddiqy', 'MUHAMMAD HASBI ASH SHIDDIQY');
same('muhammad', 'Muhammad Taufik Hidayat', 'MOH TAUFIK HIDAYAT');
different('muhammad', 'Muhammad Rizky', 'MUHAMMAD FAUZI');
different('one-letter', 'M. Rizky', 'MUHAMMAD RIFKY'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('muhammad', 'Muhammad Iqbal', 'MUHAMMAD IKHSAN');
different('muhammad', 'Abdul Rahman', 'ABDUL RAHIM');
different('muhammad', 'Abdul Kadir', 'ABDUL KARIM');
different('muhammad', 'Muhammad Arif Hidayat', 'MUHAMMAD ARIF RAHMAN');
different('muhammad', 'Muhammad Yusuf', 'MUHAMMAD YUNUS');
different('muhammad', 'Mohammad Hatta', 'MOH HASAN');
different('muhammad', 'Ahmad Fauzi', 'MUHAMMAD FAUZI');
different('muhammad', 'Abdullah Syafii', 'ABDUL SYAFII');
review('muhammad', 'Muhammad', 'MUHAMMAD IQBAL');
review('muhammad', 'Muhammad Ilham', 'M ILHAM SYAHPUTRA');
review('muhammad', 'M. Fadli', 'MARDIANTO FADLI');

// --- initials --------------------------------------------------------------------------------------
same('initials', 'Rizky A Pratama', 'RIZKY ADI PRATAMA');
same('initials', 'Rizky Adi Pratama', 'RIZKY A PRATAMA');
same('initials', 'Yohanes B. Pattiasina', 'YOHANES BENEDIKTUS PATTIASINA');
same('initials', 'Siti N. Aisyah', 'SITI NUR AISYAH');
same('initials', 'Teguh P. Santoso', 'TEGUH PRIBADI SANTOSO');
same('initials', 'Fransiskus X. Lodo', 'FRANSISKUS XAVERIUS LODO');
review('initials', 'Budi S.', 'BUDI SANTOSO');
review('initials', 'B. Santoso', 'BUDI SANTOSO');
same('initials', 'Dewi Kartika Sari', 'DEWI K SARI'); // issue 26: same by the names dev set's labelling rules
review('initials', 'Agus Salim H', 'AGUS SALIM HARAHAP');
review('initials', 'Hendra W.', 'HENDRA WIJAYA');
review('initials', 'A. Rahman', 'ABDUL RAHMAN');
review('initials', 'Teguh P. Santoso', 'TEGUH SANTOSO');
review('initials', 'R. Hidayat', 'RAHMAT HIDAYAT');
different('initials', 'Rizky A Pratama', 'RIZKY BAYU PRATAMA');
different('initials', 'Yohanes B. Pattiasina', 'YOHANES MARKUS PATTIASINA');
different('initials', 'Budi S.', 'BUDI HARTONO');
different('initials', 'Siti N. Aisyah', 'SITI RAHMA AISYAH');

// --- old and new spelling --------------------------------------------------------------------------
same('old-spelling', 'Sukarno', 'SOEKARNO');
same('old-spelling', 'Suharto', 'SOEHARTO');
same('old-spelling', 'Djoko Susilo', 'JOKO SUSILO');
same('old-spelling', 'Joko Susilo', 'DJOKO SOESILO');
same('old-spelling', 'Tjahjo Kumolo', 'CAHYO KUMOLO');
same('old-spelling', 'Cahyono Wibowo', 'TJAHJONO WIBOWO');
same('old-spelling', 'Sjamsul Arifin', 'SYAMSUL ARIFIN');
same('old-spelling', 'Sjahrir', 'SYAHRIR');
same('old-spelling', 'I Njoman Gede Suwita', 'I NYOMAN GEDE SUWITA');
same('old-spelling', 'Chairul Tanjung', 'KHAIRUL TANJUNG');
same('old-spelling', 'Achmad Sudrajat', 'AHMAD SUDRAJAT');
same('old-spelling', 'Rachmat Hidayat', 'RAHMAT HIDAYAT');
same('old-spelling', 'Jusuf Kalla', 'YUSUF KALLA');
same('old-spelling', 'Yulianto Prasetyo', 'JULIANTO PRASETYO');
same('old-spelling', 'Soesilo Bambang Joedojono', 'SUSILO BAMBANG YUDOYONO');
same('old-spelling', 'Sutrisno', 'SOETRISNO');
same('old-spelling', 'Purnomo Yusgiantoro', 'POERNOMO JUSGIANTORO');
same('old-spelling', 'Tjipto Mangunkusumo', 'CIPTO MANGUNKUSUMO');
same('old-spelling', 'Djuanda Kartawidjaja', 'JUANDA KARTAWIJAYA');
same('old-spelling', 'Chusnul Chotimah', 'KHUSNUL KHOTIMAH');
same('old-spelling', 'Husnul Khotimah', 'CHUSNUL CHOTIMAH');
same('old-spelling', 'Wahjudi Santoso', 'WAHYUDI SANTOSO');
same('old-spelling', 'Budi Oetomo', 'BUDI UTOMO');
same('old-spelling', 'Harjono Sukarno', 'HARYONO SOEKARNO');
same('old-spelling', 'Endang Soewarni', 'ENDANG SUWARNI');
same('old-spelling', 'Koesnadi Hardjasoemantri', 'KUSNADI HARJASUMANTRI');
same('old-spelling', 'Tjandra Wijaya', 'CANDRA WIJAYA');
same('old-spelling', 'Chandra Wijaya', 'CANDRA WIJAYA');
same('old-spelling', 'Sudjatmiko', 'SUJATMIKO');
same('old-spelling', 'Soekotjo Hadiwidjojo', 'SUKOCO HADIWIJOYO');
same('old-spelling', 'Nyoto Prawiro', 'NJOTO PRAWIRO');
same('old-spelling', 'Tjokro Aminoto', 'COKRO AMINOTO');

// --- everyday variants -----------------------------------------------------------------------------
same('variants', 'Rizky Ramadhan', 'RIZKI RAMADAN');
same('variants', 'Dedi Kurniawan', 'DEDY KURNIAWAN');
same('variants', 'Yuli Astuti', 'YULY ASTUTI');
same('variants', 'Hendy Saputra', 'HENDI SAPUTRA');
same('variants', 'Rizkie Amalia', 'RIZKI AMALIA');
same('variants', 'Ahmad Fauzy', 'AHMAD FAUZI');
same('variants', 'Hasan Basri', 'HASSAN BASRI');
same('variants', 'Annisa Rahmawati', 'ANISA RAHMAWATI');
same('variants', 'Abdullah Syafii', 'ABDULAH SYAFII');
same('variants', 'Stephanie Wijaya', 'STEFANI WIJAYA');
same('variants', 'Steven Halim', 'STEFEN HALIM');
same('variants', 'Faizal Rahman', 'FAISAL RAHMAN');
same('variants', 'Philips Manurung', 'FILIPS MANURUNG');
same('variants', 'Novi Andriani', 'NOFI ANDRIANI');
same('variants', 'Evi Susanti', 'EFI SUSANTI');
same('variants', 'Zainal Abidin', 'ZAENAL ABIDIN');
same('variants', 'Maria Ulfa', 'MARIA ULFAH');
same('variants', 'Taufik Hidayat', 'TAUFIQ HIDAYAT');
same('variants', 'Ramadhan Pohan', 'RAMADAN POHAN');
same('variants', 'Dyah Ayu Pitaloka', 'DIAH AYU PITALOKA');
same('variants', 'Sofyan Djalil', 'SOFIAN JALIL');
same('variants', 'Fatimah Azzahra', 'FATIMA AZZAHRA');
same('variants', 'Saiful Bahri', 'SYAIFUL BAHRI');
same('variants', 'Yosef Manurung', 'JOSEPH MANURUNG');
same('variants', 'Kristina Simatupang', 'CHRISTINA SIMATUPANG');
same('variants', 'Johannes Wowor', 'YOHANES WOWOR');
same('variants', 'Alex Tumbelaka', 'ALEKS TUMBELAKA');
same('variants', 'Dzikri Ramadhan', 'ZIKRI RAMADHAN');
same('variants', 'Nurhasanah Pulungan', 'NURHASANAH PULUNGAN');
same('variants', 'Syarifah Aminah', 'SARIFAH AMINAH');
same('variants', 'Teddy Prasetyo', 'TEDI PRASETIO');

// --- one-letter typos in long names (a person typed the expected name) -------------------------------
same('typos', 'Kurniwan Setiadi', 'KURNIAWAN SETIADI');
same('typos', 'Rahmawti Lestari', 'RAHMAWATI LESTARI');
same('typos', 'Maria Simanjutak', 'MARIA SIMANJUNTAK');
same('typos', 'Agus Setiwan', 'AGUS SETIAWAN');
same('typos', 'Fitri Handayni', 'FITRI HANDAYANI');
same('typos', 'Parlindungan Harahpa', 'PARLINDUNGAN HARAHAP');
same('typos', 'Ratna Kusumawadrani', 'RATNA KUSUMAWARDANI');
same('typos', 'Bambang Sugiatro', 'BAMBANG SUGIARTO');

// --- word order ------------------------------------------------------------------------------------
same('word-order', 'Santoso Budi', 'BUDI SANTOSO');
same('word-order', 'Siregar Rudi Hartono', 'RUDI HARTONO SIREGAR');
same('word-order', 'Tan Siok Hwa', 'SIOK HWA TAN');
same('word-order', 'Lim Swie Hong', 'SWIE HONG LIM');
same('word-order', 'Hutapea, Maria', 'MARIA HUTAPEA');
same('word-order', 'Wijaya Hendra', 'HENDRA WIJAYA');
same('word-order', 'Liem Sioe Liong', 'SIOE LIONG LIEM');
same('word-order', 'The Kian Seng', 'KIAN SENG THE');
same('word-order', 'Kwee Lan Nio', 'LAN NIO KWEE');
same('word-order', 'Go Tjing Hoat', 'GO CING HOAT');
same('word-order', 'Tan Boen Kim', 'BOEN KIM TAN');
same('word-order', 'Nasution Ahmad Yani', 'AHMAD YANI NASUTION');
same('word-order', 'Oey Hong Lie', 'HONG LIE OEY');
different('word-order', 'Tan Siok Hwa', 'TAN SIOK LAN');
different('word-order', 'Lim Swie Hong', 'LIM SWIE KING');
different('word-order', 'Oey Hong Lie', 'OEY HONG TJOAN');
different('word-order', 'Kwee Lan Nio', 'KWEE LAN HWA');

// --- split and joined words ------------------------------------------------------------------------
same('split-join', 'Nur Aini', 'NURAINI');
same('split-join', 'Nuraini', 'NUR AINI');
same('split-join', 'Sri Rahayu Ningsih', 'SRI RAHAYUNINGSIH');
same('split-join', 'Abdul Latif', 'ABDULLATIF');
same('split-join', 'Nurul Hidayah', 'NURULHIDAYAH');
same('split-join', 'Dwi Puspita Sari', 'DWI PUSPITASARI');
same('split-join', 'Siti Nurjanah', 'SITI NUR JANAH');
same('split-join', 'Kusuma Wardhani', 'KUSUMAWARDHANI');
same('split-join', 'Ari Wibowo', 'ARIWIBOWO');
same('split-join', 'Putri Ayu Ningtyas', 'PUTRI AYUNINGTYAS');
same('split-join', 'Abdurrahman Saleh', 'ABDUR RAHMAN SALEH');
same('split-join', 'Nurhasanah', 'NUR HASANAH');
same('split-join', 'Muhammad Al Fatih', 'MUHAMMAD ALFATIH');
same('split-join', 'Fathurrahman Hakim', 'FATHUR RAHMAN HAKIM');

// --- bin / binti -----------------------------------------------------------------------------------
same('bin-binti', 'Ahmad bin Abdullah', 'AHMAD ABDULLAH');
same('bin-binti', 'Siti Aisyah binti Hasan', 'SITI AISYAH BINTI HASAN');
same('bin-binti', 'Zulkifli bin Ismail', 'ZULKIFLI BIN ISMAIL');
same('bin-binti', 'Fatimah binti Umar', 'FATIMAH UMAR');
same('bin-binti', 'Rohani binti Said', 'ROHANI BT SAID');
same('bin-binti', 'Hamzah bin Yahya', 'HAMZAH BIN YAHYA');
different('bin-binti', 'Ahmad bin Abdullah', 'ABDULLAH');
different('bin-binti', 'Ahmad bin Abdullah', 'ABDULLAH BIN AHMAD');
different('bin-binti', 'Zulkifli bin Ismail', 'ISMAIL BIN YUSUF');
different('bin-binti', 'Hasan bin Ali', 'HUSEIN BIN ALI');
different('bin-binti', 'Abdullah', 'AHMAD BIN ABDULLAH');
different('bin-binti', 'Siti Aisyah binti Hasan', 'SITI AISYAH BINTI HUSIN');
same('bin-binti', 'Siti Aisyah binti Hasan', 'SITI AISYAH'); // issue 26: same by the names dev set's labelling rules
same('bin-binti', 'Muhammad Amin bin Yusuf', 'MUHAMMAD AMIN'); // issue 26: same by the names dev set's labelling rules

// --- Balinese and Javanese prefixes, noble titles ----------------------------------------------------
same('prefixes', 'I Made Sudarsana', 'MADE SUDARSANA');
same('prefixes', 'Made Sudarsana', 'I MADE SUDARSANA');
same('prefixes', 'Ni Luh Putu Ayu Lestari', 'NI LUH PUTU AYU LESTARI');
same('prefixes', 'Ni Kadek Sri Wahyuni', 'KADEK SRI WAHYUNI');
same('prefixes', 'I Gusti Ngurah Rai Putra', 'GUSTI NGURAH RAI PUTRA');
same('prefixes', 'I Ketut Suardana', 'KETUT SUARDANA');
same('prefixes', 'I Putu Gede Arimbawa', 'PUTU GEDE ARIMBAWA');
same('prefixes', 'I Komang Adi Saputra', 'KOMANG ADI SAPUTRA');
same('prefixes', 'Raden Ajeng Kartini', 'KARTINI');
same('prefixes', 'R. Soetomo', 'RADEN SUTOMO');
same('prefixes', 'Raden Roro Ayu Wulandari', 'RR AYU WULANDARI');
same('prefixes', 'Rr. Siti Handayani', 'SITI HANDAYANI');
same('prefixes', 'RM Bambang Sutejo', 'BAMBANG SUTEJO');
same('prefixes', 'Kadek Dwi Pradnyani', 'NI KADEK DWI PRADNYANI');
same('prefixes', 'IB Made Oka', 'IDA BAGUS MADE OKA');
same('prefixes', 'Anak Agung Gede Oka', 'AA GEDE OKA');
same('prefixes', 'Teuku Muhammad Daud', 'T MUHAMMAD DAUD');
same('prefixes', 'Cut Nyak Dhien', 'CUT NYAK DIEN');
same('prefixes', 'Gede Agus Pratama', 'I GEDE AGUS PRATAMA');
same('prefixes', 'I Wayan Sukerta', 'I WYN SUKERTA');
same('prefixes', 'I Nyoman Suarjana', 'I NYM SUARJANA');
same('prefixes', 'Raden Mas Hadi Wibowo', 'HADI WIBOWO');
different('prefixes', 'I Made Sudarsana', 'I WAYAN SUDARSANA');
different('prefixes', 'I Ketut Suardana', 'I NYOMAN SUARDANA');
different('one-letter', 'I Wayan Sudirta', 'I WAYAN SUDARTA'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('prefixes', 'Ni Kadek Sri Wahyuni', 'NI KADEK AYU LESTARI');
different('prefixes', 'I Made Sudarsana', 'I MADE SUWITRA');
different('prefixes', 'Ni Luh Putu Ayu Lestari', 'NI LUH PUTU AYU WIDIASTUTI');
different('prefixes', 'Putu Gede Arimbawa', 'PUTU GEDE ARDIKA');
different('prefixes', 'Raden Ajeng Kartini', 'RADEN AJENG KARTIKA');
different('prefixes', 'Kadek Dwi Pradnyani', 'KADEK DWI PRAMESTI');
different('prefixes', 'I Made Sudarsana', 'BUDI SUDARSANA');
review('prefixes', 'Made Wirawan', 'I MADE WIRAWAN PUTRA');
review('prefixes', 'I Made Sudarsana', 'SUDARSANA');

// --- companies -------------------------------------------------------------------------------------
same('company', 'PT Sinar Jaya Abadi', 'PT SINAR JAYA ABADI');
same('company', 'PT. Sinar Jaya Abadi', 'SINAR JAYA ABADI PT');
same('company', 'CV. Maju Bersama', 'CV MAJU BERSAMA');
same('company', 'Maju Bersama, CV', 'CV. MAJU BERSAMA');
same('company', 'UD Sumber Rejeki', 'U.D. SUMBER REJEKI');
same('company', 'PT Bank Rakyat Indonesia (Persero) Tbk', 'PT BANK RAKYAT INDONESIA PERSERO TBK');
same('company', 'PT Telkom Indonesia Tbk', 'PT TELKOM INDONESIA');
same('company', 'Koperasi Simpan Pinjam Sejahtera', 'KSP SEJAHTERA');
same('company', 'Yayasan Al Ikhlas', 'YAYASAN ALIKHLAS');
same('company', 'Yayasan Pendidikan Harapan Bangsa', 'YYS PENDIDIKAN HARAPAN BANGSA');
same('company', 'PT Indah Kiat Pulp and Paper Tbk', 'PT INDAH KIAT PULP & PAPER TBK');
same('company', 'Koperasi Karyawan Sejahtera', 'KOPERASI KARYAWAN SEJAHTERA');
same('company', 'PT Sumber Alfaria Trijaya Tbk', 'SUMBER ALFARIA TRIJAYA TBK PT');
same('company', 'P.T. Cahaya Nusantara Logistik', 'PT CAHAYA NUSANTARA LOGISTIK');
same('company', 'cv sumber makmur', 'CV SUMBER MAKMUR');
same('company', 'Toko Berkah Jaya', 'TOKO BERKAH JAYA');
different('company', 'PT Sinar Jaya Abadi', 'PT SURYA JAYA ABADI');
different('company', 'PT Karya Abadi', 'PT KARYA ABADI SENTOSA');
different('company', 'PT Global Teknologi Nusantara', 'PT GLOBAL TEKNIK NUSANTARA');
different('company', 'PT Maju Mundur', 'PT MAJU JAYA');
different('company', 'PT Sinar Jaya Abadi', 'PT SINAR JAYA MAKMUR');
different('company', 'CV Berkah Abadi', 'CV BERKAH SENTOSA');
different('company', 'Budi Santoso', 'PT SINAR JAYA ABADI');
review('company', 'CV Maju Bersama', 'PT MAJU BERSAMA');
same('company', 'PT Sinar Jaya Abadi', 'SINAR JAYA ABADI'); // issue 26: same by the names dev set's labelling rules
review('company', 'Budi Santoso', 'CV BUDI SANTOSO');
review('company', 'CV Berkah Abadi', 'UD BERKAH ABADI');

// --- QQ accounts ------------------------------------------------------------------------------------
same('qq', 'PT Artha Mulia Sejahtera qq Budi Santoso', 'PT ARTHA MULIA SEJAHTERA QQ BUDI SANTOSO');
review('qq', 'Budi Santoso', 'PT ARTHA MULIA SEJAHTERA QQ BUDI SANTOSO');
review('qq', 'PT Artha Mulia Sejahtera', 'PT ARTHA MULIA SEJAHTERA QQ BUDI SANTOSO');
review('qq', 'Rina Marlina', 'NOTARIS RINA MARLINA SH QQ PT BUMI RAYA');
review('qq', 'Siti Aminah', 'YAYASAN AL IKHLAS QQ SITI AMINAH');
review('qq', 'Koperasi Mitra Dhuafa', 'KSP MITRA DHUAFA Q.Q. SITI AMINAH');
review('qq', 'Dewi Lestari', 'CV MAJU BERSAMA QQ DEWI LESTARI');
different('qq', 'Agus Santoso', 'PT ARTHA MULIA SEJAHTERA QQ BUDI SANTOSO');
different('qq', 'Hendra Gunawan', 'PT SINAR MAS QQ HENDRA WIJAYA');
different('qq', 'PT Artha Mulia Sejahtera qq Budi Santoso', 'PT ARTHA MULIA SEJAHTERA QQ AGUS SALIM');

// --- different people who share a word ------------------------------------------------------------
different('shared-word', 'Budi Santoso', 'AGUS SANTOSO');
different('shared-word', 'Siti Aminah', 'SITI AISYAH');
different('shared-word', 'Dewi Lestari', 'DEWI SARTIKA');
different('shared-word', 'Sri Wahyuni', 'SRI WAHYUNINGSIH');
different('shared-word', 'Dian Setiawan', 'DIAN SETIAWATI');
different('shared-word', 'Rudi Hartono', 'RUDI HARYANTO');
different('shared-word', 'Ahmad Fauzi', 'AHMAD FAUZAN');
different('shared-word', 'Nur Hidayah', 'NUR HIDAYATI');
different('shared-word', 'Hendra Gunawan', 'HENDRA WIJAYA');
different('one-letter', 'Andi Saputra', 'ANDI SAPUTRI'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('one-letter', 'Yulianto', 'YULIANTI'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('one-letter', 'Wahyudi Santoso', 'WAHYUNI SANTOSO'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Slamet Riyadi', 'SLAMET RAHARJO');
different('one-letter', 'Bambang Sugiarto', 'BAMBANG SUGIANTO'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Joko Susilo', 'JOKO SUSANTO');
different('one-letter', 'Putri Amelia', 'PUTRI AMALIA'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('one-letter', 'Tri Handayani', 'SRI HANDAYANI'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Dwi Cahyono', 'TRI CAHYONO');
different('shared-word', 'Eka Putri Lestari', 'DWI PUTRI LESTARI');
different('shared-word', 'Dr. Budi Gunawan', 'DR BUDI GUNADI');
different('shared-word', 'Hasan Basri', 'HUSIN BASRI');
different('shared-word', 'Fitri Handayani', 'FITRIANI HANDAYANI');
different('shared-word', 'Irwan Setiadi', 'IRWAN SETIAWAN');
different('shared-word', 'Yohanes Pattiasina', 'MARKUS PATTIASINA');
different('shared-word', 'Muhammad Yusuf', 'YUSUF MANSUR');
different('shared-word', 'Nurul Hidayah', 'NURUL HUDA');
different('shared-word', 'Ahmad Syaifullah', 'AHMAD SYAFRIZAL');
different('one-letter', 'Sri Mulyani', 'SRI MULYATI'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('one-letter', 'Dewi Susanti', 'DEWI SUSANTO'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Achmad Yani', 'AHMAD YANTO');
different('shared-word', 'Anita Kusumawati', 'ANITA KUSUMAWARDANI');
different('one-letter', 'Yoga Pratama', 'YOGI PRATAMA'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('one-letter', 'Dedi Kurniawan', 'DEDE KURNIAWAN'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('one-letter', 'Rizky Ramadhan', 'RIFKY RAMADHAN'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Fajar Nugroho', 'FAJAR NUGRAHA');
different('shared-word', 'Andi Saputra', 'ANDIKA SAPUTRA');
different('shared-word', 'Muhammad Rizky Pratama', 'MUHAMMAD FAUZI PRATAMA');
different('shared-word', 'Siti Nurhaliza', 'SITI NURHAYATI');
different('shared-word', 'Agus Salim', 'AGUS SALIMAN');
different('shared-word', 'Rahmat Hidayat', 'RAHMAT HIDAYATULLAH');
different('shared-word', 'Dimas Anggara', 'DIMAS ANGGORO');
different('shared-word', 'Lukman Hakim', 'LUKMAN HARIS');
different('shared-word', 'Eko Prasetyo', 'EKO PURNOMO');
different('shared-word', 'Indah Permatasari', 'INDAH PURNAMASARI');
different('one-letter', 'Yuliana Sari', 'YULIANI SARI'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Rina Marlina', 'RINA MELATI');
different('one-letter', 'Hotma Sitompul', 'HOTMAN SITOMPUL'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Maria Hutapea', 'MARIA HUTABARAT');
different('shared-word', 'Budi Tanoto', 'BUDI TANUWIJAYA');
different('shared-word', 'Bayu Aji Nugroho', 'BAYU AJI NUGRAHA');
different('shared-word', 'Sri Rahayu', 'SRI RAHAYUNINGSIH');
different('shared-word', 'Dewi Kartika Sari', 'DEWI KARTINI SARI');
different('shared-word', 'Arif Rahman Hakim', 'ARIF RAHMAN HIDAYAT');
different('shared-word', 'Hj. Siti Aminah', 'HJ SITI AMINATUN');
different('shared-word', 'Agus Santoso', 'SANTOSO AGUS WIJAYA BUDIMAN');
different('one-letter', 'Kevin Wijaya', 'KELVIN WIJAYA'); // issue 26: two real names one letter apart are different by the names dev set's labelling rules
different('shared-word', 'Anton Sugiharto', 'ANTONIUS SUGIHARTO');
different('shared-word', 'Wawan Setiawan', 'IWAN SETIAWAN');
review('one-letter', 'Sutrisno', 'SUTRISNA');
different('shared-word', 'Heru Susanto', 'HERU SUSILO');
different('shared-word', 'Adi Nugroho', 'ADI NUGRAHA SAPUTRA');
different('shared-word', 'Ratna Dewi', 'RATNA DEWANTI');

// --- unrelated holders (wrong account number) ----------------------------------------------------------
different('unrelated', 'Budi Santoso', 'SITI AMINAH');
different('unrelated', 'Rudi Hartono', 'PT SINAR JAYA ABADI');
different('unrelated', 'Dewi Lestari', 'I MADE SUDARSANA');
different('unrelated', 'Tan Siok Hwa', 'MUHAMMAD FAUZI');
different('unrelated', 'Yohanes Pattiasina', 'AHMAD DAHLAN');
different('unrelated', 'Hendra Gunawan', 'HENDRAWAN SUTANTO');
different('unrelated', 'Nur Aini', 'NURHAYATI');
different('unrelated', 'Agus Salim', 'MARIA GORETI TUMBELAKA');
different('unrelated', 'Eko Prasetyo', 'PT TELKOM INDONESIA TBK');
different('unrelated', 'Sri Mulyani', 'RAHMAT HIDAYAT');
different('unrelated', 'Lim Swie Hong', 'LIEM SIOE LIONG');
different('unrelated', 'Oey Hong Lie', 'KWEE LAN NIO');
different('unrelated', 'PT Cahaya Nusantara Logistik', 'CV MAJU BERSAMA');
different('unrelated', 'Asep Saepudin', 'CECEP SUPRIATNA');
different('unrelated', 'Euis Komariah', 'ENDANG SULISTYOWATI');
different('unrelated', 'Parlindungan Harahap', 'HOTMA ULI SITOMPUL');
different('unrelated', 'Muhammad Rizky Pratama Saputra', 'ANGGI NOVITASARI');
different('unrelated', 'Ni Luh Putu Ayu Lestari', 'I KETUT SUARDANA');
different('unrelated', 'Yayasan Al Ikhlas', 'YAYASAN HARAPAN BANGSA');
different('unrelated', 'Fransiskus Xaverius Lodo', 'YULIUS WENDA');

// --- partial names: a word missing on one side ------------------------------------------------------
review('partial', 'Muhammad Rizky', 'MUHAMMAD');
review('partial', 'Siti Aminah', 'SITI');
review('partial', 'Budi Santoso', 'BUDI');
review('partial', 'Rizky Pratama', 'RIZKY');
review('partial', 'Muhammad Arif', 'MUHAMMAD ARIF HIDAYAT');
review('partial', 'Agus Salim', 'SALIM');
review('partial', 'Muhammad Iqbal', 'IQBAL');
review('partial', 'Rahmat Hidayat', 'HIDAYAT');
review('partial', 'Hendra Wijaya', 'HENDRA WIJAYA KUSUMA');
review('partial', 'Bambang Irawan', 'BAMBANG IRAWAN SETIADI');
review('partial', 'Joko Widodo', 'JOKO WIDODO SANTOSO');
review('partial', 'Ratna Sari Dewi', 'RATNA SARI');
review('partial', 'Slamet', 'SLAMET RIYADI');
review('partial', 'Sri Wahyuni', 'WAHYUNI');
review('partial', 'Maria Hutapea', 'HUTAPEA');
review('partial', 'Andi Muhammad Amir', 'ANDI AMIR');

export const handWrittenTuning = pairs;
