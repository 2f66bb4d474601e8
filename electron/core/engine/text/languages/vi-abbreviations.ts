/**
 * Vietnamese abbreviations and acronyms, as data, and the rule that reads them: administrative,
 * education, health, police, law, business and common ones of Vietnamese news, and English
 * acronyms as they are said there. One line per entry: `written = spoken`, then `| when` for an
 * entry that is read only in some places:
 * - `title`: a title or place word, mostly before a name ("GS. Minh", "TP Cần Thơ"); read
 *   elsewhere too ("các TP lớn"), its full stop kept where it ends a sentence;
 * - `name`: only before a capitalised name ("ĐT Việt Nam" đội tuyển, "TH Cát Linh" tiểu học);
 * - `number`: before a number ("Tr. 5", "ĐT: 0912…");
 * - `address`: before a number ("Q.1", "P. 5"), or before a capitalised name where an address
 *   part starts (after a comma, an opening parenthesis or at the start: ", P. Bến Nghé");
 * - `company`: after "công ty" / "Cty" ("Công ty CP" cổ phần);
 * - `end`: often ends a sentence ("v.v."): its full stop is kept when a new sentence follows;
 * - `year`: only before a year ("SN 1985" sinh năm);
 * - `place`: before a capitalised name or a word of a place or an administrative level ("CA Đồng
 *   Nai", "CA tỉnh", "Ảnh: CA Hà Nội" công an);
 * - `sport`: before a sport ("LĐ bóng đá", "LĐ điền kinh" liên đoàn);
 * - `tag`: a paper's site tag at the start of the text or a line, maybe in brackets, before a dash,
 *   a bar, a colon or (after its closing bracket) a capital ("GĐXH - …", "(CAO) Tối …", "HNM| …");
 * - `dateline`: a city in English or unaccented capitals heading the text or a line, before a dash, a
 *   comma or a bracket ("SAIGON -- …", "HANOI (Reuters) -");
 * - `foreign`: before a foreign name, a capitalised word that is no Vietnamese syllable ("TT Obama",
 *   "TT Trump" tổng thống; "TT Y tế" is left).
 * An entry whose condition does not hold is spelt when it is in capitals ("ĐT" alone), else left.
 * The user's lexicon beats every entry (its abbreviation entries are matched before the rules).
 */

import { piece, type Rule, type RuleContext } from '../rule-kit';
import { definedAcronym } from './vi-acronym-definitions';
import { spellVi, VI_SYLLABLE } from './vi-letters';
import { viCardinal } from './vi-numbers';
import { VI_CURRENCIES } from './vi-units';

type When =
  | 'title'
  | 'name'
  | 'number'
  | 'address'
  | 'company'
  | 'end'
  | 'year'
  | 'place'
  | 'sport'
  | 'tag'
  | 'dateline'
  | 'credit'
  | 'medal'
  | 'foreign';

const TABLE = [
  // administration and the state
  'UBND = ủy ban nhân dân',
  // a signature block of an official paper ("TM. ỦY BAN NHÂN DÂN", "KT. GIÁM ĐỐC")
  'TM. = thay mặt | name',
  'KT. = ký thay | name',
  'TL. = thừa lệnh | name',
  'TUQ. = thừa ủy quyền | name',
  'HĐND = hội đồng nhân dân',
  'MTTQ = mặt trận tổ quốc',
  'CTTĐT = cổng thông tin điện tử',
  'SHTT = sở hữu trí tuệ',
  'UBMTTQ = ủy ban mặt trận tổ quốc',
  'TW = trung ương',
  'TƯ = trung ương',
  'T.Ư = trung ương',
  'T.W = trung ương',
  'PCT = phó chủ tịch',
  'PTTg = phó thủ tướng',
  'TTK = tổng thư ký',
  'BTV = ban thường vụ',
  'TNCS = thanh niên cộng sản',
  'QLTT = quản lý thị trường',
  'QH = quốc hội',
  'ĐBQH = đại biểu quốc hội',
  'UBTVQH = ủy ban thường vụ quốc hội',
  'TAND = tòa án nhân dân',
  'TANDTC = tòa án nhân dân tối cao',
  'VKSND = viện kiểm sát nhân dân',
  'VKSNDTC = viện kiểm sát nhân dân tối cao',
  'CHXHCN = cộng hòa xã hội chủ nghĩa',
  'XHCN = xã hội chủ nghĩa',
  'ĐCSVN = đảng cộng sản Việt Nam',
  'ĐCS = đảng cộng sản',
  'BCH = ban chấp hành',
  'BCT = bộ chính trị',
  'BBT = ban bí thư',
  'TBT = tổng bí thư',
  'CTN = chủ tịch nước',
  'TTg = thủ tướng',
  'VPCP = văn phòng chính phủ',
  'NĐ-CP = nghị định chính phủ',
  'QĐ-TTg = quyết định thủ tướng',
  'NQ-CP = nghị quyết chính phủ',
  'NĐ = nghị định | number',
  'QĐ = quyết định | number',
  'QĐ số = quyết định số',
  'NQ = nghị quyết | number',
  'BCĐ = ban chỉ đạo',
  'LHQ = liên hợp quốc',
  'TTXVN = thông tấn xã Việt Nam',
  'VN = Việt Nam',
  'THADS = thi hành án dân sự',
  'PCTN = phòng chống tham nhũng',
  'CCHC = cải cách hành chính',
  'QĐ-UBND = quyết định ủy ban nhân dân',
  'NQ-HĐND = nghị quyết hội đồng nhân dân',
  'CT-TTg = chỉ thị thủ tướng',
  'NQ/TW = nghị quyết trung ương',
  // the subject line of an official letter ("Thông báo … V/v giờ thăm bệnh")
  'V/v = về việc',
  'V/V = về việc',
  'QĐ-BYT = quyết định bộ y tế',
  'TT-BYT = thông tư bộ y tế',
  'TT-BTC = thông tư bộ tài chính',
  'TT-BGDĐT = thông tư bộ giáo dục và đào tạo',
  'TT-BCA = thông tư bộ công an',
  'TT-BGTVT = thông tư bộ giao thông vận tải',
  'TT-BLĐTBXH = thông tư bộ lao động thương binh và xã hội',
  'TCHQ = tổng cục hải quan',
  'KBNN = kho bạc nhà nước',
  'NSNN = ngân sách nhà nước',
  'BQL = ban quản lý',
  'BTC = ban tổ chức',
  'UBKT = ủy ban kiểm tra',
  'KT-XH = kinh tế xã hội',
  'KTXH = kinh tế xã hội',
  'QP-AN = quốc phòng an ninh',
  'ANQP = an ninh quốc phòng',
  'CBCC = cán bộ công chức',
  'CCVC = công chức viên chức',
  'CBCCVC = cán bộ công chức viên chức',
  'CBCNV = cán bộ công nhân viên',
  'CNVC-LĐ = công nhân viên chức lao động',
  'CNVCLĐ = công nhân viên chức lao động',
  'CNVC = công nhân viên chức',
  'NLĐ = người lao động',
  'CNLĐ = công nhân lao động',
  'LĐLĐ = liên đoàn lao động',
  'CĐCS = công đoàn cơ sở',
  'ĐVTN = đoàn viên thanh niên',
  'HLHPN = hội liên hiệp phụ nữ',
  'LHPN = liên hiệp phụ nữ',
  'CCB = cựu chiến binh',
  'NVH = nhà văn hóa',
  'KTTV = khí tượng thủy văn',
  'PCTT = phòng chống thiên tai',
  'TKCN = tìm kiếm cứu nạn',
  'BĐKH = biến đổi khí hậu',
  'VQG = vườn quốc gia',
  'NTM = nông thôn mới',
  'ĐVHC = đơn vị hành chính',
  'CSDL = cơ sở dữ liệu',
  'CĐS = chuyển đổi số',
  'TTHC = thủ tục hành chính',
  'TTĐT = thông tin điện tử',
  'DVCTT = dịch vụ công trực tuyến',
  'TTCP = thanh tra chính phủ',
  'KTNN = kiểm toán nhà nước',
  'SN = sinh năm | year',
  'CA = công an | place',
  'LĐ = liên đoàn | sport',
  'PV = phóng viên',
  'CTV = cộng tác viên',
  'CATP = công an thành phố',
  // PetroVietnam's companies ("PV GAS", "PV Power"), not phóng viên
  'PV GAS = pê vê gát',
  'PV Gas = pê vê gát',
  'PV Power = pê vê pao ơ',
  'PV POWER = pê vê pao ơ',
  'PV OIL = pê vê oi',
  'PV Oil = pê vê oi',
  // ministries and sectors
  'BGD&ĐT = bộ giáo dục và đào tạo',
  'BGDĐT = bộ giáo dục và đào tạo',
  'GD&ĐT = giáo dục và đào tạo',
  'GD-ĐT = giáo dục và đào tạo',
  'GDĐT = giáo dục và đào tạo',
  'BYT = bộ y tế',
  'BCA = bộ công an',
  'BQP = bộ quốc phòng',
  'BNG = bộ ngoại giao',
  'NHNN = ngân hàng nhà nước',
  'KH&ĐT = kế hoạch và đầu tư',
  'KH-ĐT = kế hoạch và đầu tư',
  'KH&CN = khoa học và công nghệ',
  'KHCN = khoa học công nghệ',
  'KHKT = khoa học kỹ thuật',
  'TN&MT = tài nguyên và môi trường',
  'TNMT = tài nguyên môi trường',
  'LĐ-TB&XH = lao động thương binh và xã hội',
  'LĐTBXH = lao động thương binh và xã hội',
  'VH-TT&DL = văn hóa thể thao và du lịch',
  'VH, TT & DL = văn hóa, thể thao và du lịch',
  'VH, TT và DL = văn hóa, thể thao và du lịch',
  'VHTT&DL = văn hóa thể thao và du lịch',
  'VH-TT-DL = văn hóa, thể thao và du lịch',
  'VH-TT = văn hóa thể thao',
  'VH&TT = văn hóa và thể thao',
  'VHTT = văn hóa thể thao',
  'NN-PTNT = nông nghiệp và phát triển nông thôn',
  'NN và PTNT = nông nghiệp và phát triển nông thôn',
  'TN-MT = tài nguyên và môi trường',
  'TN và MT = tài nguyên và môi trường',
  'LĐ-TBXH = lao động thương binh và xã hội',
  'LĐTB&XH = lao động thương binh và xã hội',
  'KH-CN = khoa học và công nghệ',
  'KH và CN = khoa học và công nghệ',
  'TT-TT = thông tin và truyền thông',
  'TT và TT = thông tin và truyền thông',
  'TTTT = thông tin truyền thông',
  'GTVT-XD = giao thông vận tải xây dựng',
  'TC-KH = tài chính kế hoạch',
  'NV = nội vụ | name',
  'TT = tổng thống | foreign',
  'TT Huế = Thừa Thiên Huế',
  'TT-Huế = Thừa Thiên Huế',
  'VHTTDL = văn hóa thể thao và du lịch',
  'GTVT = giao thông vận tải',
  'NN&PTNT = nông nghiệp và phát triển nông thôn',
  'NNPTNT = nông nghiệp và phát triển nông thôn',
  'TT&TT = thông tin và truyền thông',
  'CNTT = công nghệ thông tin',
  // places and addresses
  'TP.HCM = thành phố Hồ Chí Minh',
  'TP. HCM = thành phố Hồ Chí Minh',
  'Tp.HCM = thành phố Hồ Chí Minh',
  'Tp. HCM = thành phố Hồ Chí Minh',
  'TP HCM = thành phố Hồ Chí Minh',
  'TPHCM = thành phố Hồ Chí Minh',
  'HCM = Hồ Chí Minh',
  'TP. = thành phố | title',
  'Tp. = thành phố | title',
  'TP = thành phố | title',
  'Tp HCM = thành phố Hồ Chí Minh',
  'Tp = thành phố | title',
  'Q. = quận | address',
  'P. = phường | address',
  'H. = huyện | address',
  'TX. = thị xã | title',
  'TX = thị xã | title',
  'TT. = thị trấn | title',
  'KCN = khu công nghiệp',
  'KCX = khu chế xuất',
  'KĐT = khu đô thị',
  'KDC = khu dân cư',
  'KD = kinh doanh',
  'ĐBSCL = đồng bằng sông Cửu Long',
  'BR-VT = Bà Rịa Vũng Tàu',
  'QL = quốc lộ | number',
  'ĐT = đội tuyển | name',
  'ĐT: = điện thoại:',
  'SĐT = số điện thoại',
  'ĐTDĐ = điện thoại di động',
  // education
  'ĐH = đại học',
  'CĐ = cao đẳng',
  'THPT = trung học phổ thông',
  'THPTQG = trung học phổ thông quốc gia',
  'THCS = trung học cơ sở',
  'TH = tiểu học | name',
  'Đài TH = Đài truyền hình',
  'ĐHQG = đại học quốc gia',
  'ĐHQGHN = đại học quốc gia Hà Nội',
  'ĐHBK = đại học bách khoa',
  'SGK = sách giáo khoa',
  'GV = giáo viên',
  'GVCN = giáo viên chủ nhiệm',
  'HS = học sinh',
  'SV = sinh viên',
  'NCS = nghiên cứu sinh',
  'GDTX = giáo dục thường xuyên',
  'GDNN = giáo dục nghề nghiệp',
  'GDMN = giáo dục mầm non',
  'HSG = học sinh giỏi',
  // accounting
  'CCDC = công cụ dụng cụ',
  'TSCĐ = tài sản cố định',
  'TSCD = tài sản cố định',
  'UNC = ủy nhiệm chi',
  // a bank's deposit terms ("KKH 0.20%": a deposit without a term)
  'KKH = không kỳ hạn',
  // the gold company, said as a word ("Giá vàng DOJI")
  'DOJI = đô gi',
  // history: a year before the common era ("năm 179 TCN", "thế kỷ III TCN")
  'TCN = trước Công nguyên',
  'SCN = sau Công nguyên',
  // money and the press
  'NDT = nhân dân tệ',
  'LTS = lời tòa soạn | tag',
  'ĐHSP = đại học sư phạm',
  'PHHS = phụ huynh học sinh',
  'BGH = ban giám hiệu',
  'CBQL = cán bộ quản lý',
  'HSSV = học sinh sinh viên',
  'NCKH = nghiên cứu khoa học',
  'ĐGNL = đánh giá năng lực',
  // titles
  'GS.TS. = giáo sư tiến sĩ | title',
  'GS.TS = giáo sư tiến sĩ | title',
  'PGS.TS. = phó giáo sư tiến sĩ | title',
  'PGS.TS = phó giáo sư tiến sĩ | title',
  'GS. = giáo sư | title',
  'GS = giáo sư | title',
  'PGS. = phó giáo sư | title',
  'PGS = phó giáo sư | title',
  'TS. = tiến sĩ | title',
  'TS = tiến sĩ | title',
  'TSKH = tiến sĩ khoa học',
  'ThS. = thạc sĩ | title',
  'ThS = thạc sĩ | title',
  'Ths. = thạc sĩ | title',
  'BS. = bác sĩ | title',
  'BS = bác sĩ | title',
  // the English title before a Vietnamese doctor's name ("Dr Thùy Dung")
  'Dr. = bác sĩ | name',
  'Dr = bác sĩ | name',
  'BSCKI = bác sĩ chuyên khoa một',
  'BSCKII = bác sĩ chuyên khoa hai',
  'CKI = chuyên khoa một',
  'CKII = chuyên khoa hai',
  'BSNT = bác sĩ nội trú',
  'KTS = kiến trúc sư | title',
  'DS = dược sĩ | name',
  'ĐD = điều dưỡng | name',
  'KS. = kỹ sư | title',
  'KS = kỹ sư | title',
  'LS. = luật sư | title',
  'LS = luật sư | title',
  'NSND = nghệ sĩ nhân dân',
  'NSƯT = nghệ sĩ ưu tú',
  'NGND = nhà giáo nhân dân',
  'NGƯT = nhà giáo ưu tú',
  'TTND = thầy thuốc nhân dân',
  'TTƯT = thầy thuốc ưu tú',
  'HLV = huấn luyện viên',
  'VĐV = vận động viên',
  'CLB = câu lạc bộ',
  'NTĐ = nhà thi đấu',
  // a ticket's or a cable's category ("vé hạng CAT 1", "cáp CAT 6")
  'CAT = cát | number',
  'TDTT = thể dục thể thao',
  'HCV = huy chương vàng',
  'HCB = huy chương bạc',
  'HCĐ = huy chương đồng',
  'HC = huy chương | medal',
  'VĐQG = vô địch quốc gia',
  'ĐTQG = đội tuyển quốc gia',
  'BXH = bảng xếp hạng',
  'SVĐ = sân vận động',
  'CĐV = cổ động viên',
  'VCK = vòng chung kết',
  'ĐKVĐ = đương kim vô địch',
  // health
  'BHYT = bảo hiểm y tế',
  'BHXH = bảo hiểm xã hội',
  'BHTN = bảo hiểm thất nghiệp',
  'BV = bệnh viện | title',
  'BVĐK = bệnh viện đa khoa',
  'TTYT = trung tâm y tế',
  'YTDP = y tế dự phòng',
  'BN = bệnh nhân',
  'NB = người bệnh',
  'KCB = khám chữa bệnh',
  'DVKT = dịch vụ kỹ thuật',
  'TMH = tai mũi họng',
  'SXH = sốt xuất huyết',
  'TYT = trạm y tế',
  'KSBT = kiểm soát bệnh tật',
  'YHCT = y học cổ truyền',
  'NVYT = nhân viên y tế',
  'ATTP = an toàn thực phẩm',
  'VSATTP = vệ sinh an toàn thực phẩm',
  'TCMR = tiêm chủng mở rộng',
  'ĐTĐ = đái tháo đường',
  'THA = tăng huyết áp',
  // police, the army and the law
  'CSGT = cảnh sát giao thông',
  'CAND = công an nhân dân',
  'QĐND = quân đội nhân dân',
  'CSCĐ = cảnh sát cơ động',
  'CSHS = cảnh sát hình sự',
  'PCCC = phòng cháy chữa cháy',
  'CNCH = cứu nạn cứu hộ',
  'BĐBP = bộ đội biên phòng',
  'ANTT = an ninh trật tự',
  'TTATGT = trật tự an toàn giao thông',
  'ATGT = an toàn giao thông',
  'TNGT = tai nạn giao thông',
  'VPHC = vi phạm hành chính',
  'GPLX = giấy phép lái xe',
  'CCCD = căn cước công dân',
  'CMND = chứng minh nhân dân',
  'BLHS = bộ luật hình sự',
  'BLTTDS = bộ luật tố tụng dân sự',
  'BLLĐ = bộ luật lao động',
  'BLDS = bộ luật dân sự',
  'TTHS = tố tụng hình sự',
  'BLTTHS = bộ luật tố tụng hình sự',
  'CQĐT = cơ quan điều tra',
  'CQCSĐT = cơ quan cảnh sát điều tra',
  'CSĐT = cảnh sát điều tra',
  'HĐXX = hội đồng xét xử',
  'TNHS = trách nhiệm hình sự',
  'VKS = viện kiểm sát',
  'BKS = biển kiểm soát',
  'PTGT = phương tiện giao thông',
  'TL = tỉnh lộ | number',
  // business
  'Cty = công ty',
  'Cty. = công ty',
  'CTy = công ty',
  'TNHH = trách nhiệm hữu hạn',
  'CTCP = công ty cổ phần',
  'CP = cổ phần | company',
  'TMCP = thương mại cổ phần',
  'NHTM = ngân hàng thương mại',
  'DN = doanh nghiệp',
  'DNNN = doanh nghiệp nhà nước',
  'DNNVV = doanh nghiệp nhỏ và vừa',
  'HĐQT = hội đồng quản trị',
  'ĐHĐCĐ = đại hội đồng cổ đông',
  'UBCK = ủy ban chứng khoán',
  // a builder's sheet ("DTXD tầng trệt", "Chi phí XD móng")
  'DTXD = diện tích xây dựng',
  'XD = xây dựng',
  'TGĐ = tổng giám đốc',
  'GĐ = giám đốc',
  'PGĐ = phó giám đốc',
  'BĐS = bất động sản',
  'XNK = xuất nhập khẩu',
  'XK = xuất khẩu',
  'NK = nhập khẩu',
  'HTX = hợp tác xã',
  'TTCK = thị trường chứng khoán',
  'TMĐT = thương mại điện tử',
  'BCTC = báo cáo tài chính',
  'LNST = lợi nhuận sau thuế',
  'NXB = nhà xuất bản',
  'GTGT = giá trị gia tăng',
  'TNDN = thu nhập doanh nghiệp',
  'TNCN = thu nhập cá nhân',
  'DNTN = doanh nghiệp tư nhân',
  'NĐT = nhà đầu tư',
  'CTCK = công ty chứng khoán',
  'SXKD = sản xuất kinh doanh',
  'KQKD = kết quả kinh doanh',
  'TCTD = tổ chức tín dụng',
  'UBCKNN = ủy ban chứng khoán nhà nước',
  'BGĐ = ban giám đốc',
  'TTTM = trung tâm thương mại',
  // the power corporations, as their names are said ("EVNHANOI": e vê en Hà Nội)
  'EVN = e vê en',
  'EVNHANOI = e vê en Hà Nội',
  'EVNSPC = e vê en ét pê xê',
  'EVNNPC = e vê en en pê xê',
  'EVNCPC = e vê en xê pê xê',
  // common
  'v.v. = vân vân | end',
  'v.v = vân vân',
  'ÂL = âm lịch',
  'Tr. = trang | number',
  'tr. = trang | number',
  'STT = số thứ tự',
  'Số TT = số thứ tự',
  'số TT = số thứ tự',
  'LHP = liên hoan phim',
  // the informal writing of forums and shops
  'ko = không',
  'sp = sản phẩm',
  'TV = ti vi',
  // English acronyms as Vietnamese news says them
  'WHO = vê kép hát ô',
  'USD = đô la Mỹ',
  'VND = Việt Nam đồng',
  'VNĐ = Việt Nam đồng',
  'RON = rôn',
  'COVID = cô vít',
  'Covid = cô vít',
  'covid = cô vít',
  'AI = ây ai',
  'GDP = gờ đê pê',
  'FDI = ép đê i',
  'ODA = ô đê a',
  'ASEAN = a xê an',
  'NATO = na tô',
  'EU = e u',
  'UNESCO = u nét cô',
  'UNICEF = iu ni xép',
  'FIFA = phi pha',
  'AFF = a ép ép',
  'APEC = a péc',
  'WTO = vê kép tê ô',
  'IMF = i em ép',
  'CEO = xi i âu',
  'CPI = xê pê i',
  'IT = ai ti',
  'USB = u ét bê',
  'SMS = ét em ét',
  'GPS = gờ pê ét',
  'OTP = ô tê pê',
  'ATM = a tê mờ',
  'VIP = víp',
  'MC = em xi',
  'VAR = va',
  'VAT = vê a tê',
  'SEA Games = xi ghêm',
  'SEA GAMES = xi ghêm',
  'RAM = ram',
  'ROM = rom',
  'OPEC = ô péc',
  'NASA = na sa',
  'UEFA = u ê pha',
  'ASIAD = a xi át',
  'ASEM = a xem',
  'LED = lét',
  'OLED = ô lét',
  'AMOLED = a mô lét',
  'SIM = sim',
  'OK = ô kê',
  'IMAX = ai mắc',
  // papers' site tags at the head of an article ("GĐXH - …", "(CAO) …", "HNM| …", "TTO - …"); "Online"
  // as a Vietnamese reader says it, in Vietnamese syllables ("on lai") so every voice says it so
  'GĐXH = Gia đình và Xã hội | tag',
  'CAO = Công an on lai | tag',
  'HNM = Hà Nội mới | tag',
  'TTO = Tuổi Trẻ on lai | tag',
  'PLO = Pháp Luật on lai | tag',
  'NLĐO = Người Lao Động on lai | tag',
  'ANTĐ = An ninh Thủ đô | tag',
  'SGGP = Sài Gòn Giải Phóng | tag',
  'PNO = Phụ nữ on lai | tag',
  'NDO = Nhân Dân on lai | tag',
  'KTĐT = Kinh tế và Đô thị | tag',
  'ĐSVH = Đời sống văn hóa | tag',
  'GDTĐ = Giáo dục và Thời đại | tag',
  'ĐSPL = Đời sống và Pháp luật | tag',
  'TN = Thanh Niên | tag',
  'VOV = vê ô vê | tag',
  'VOV.VN = vê ô vê chấm vê en | tag',
  'THPL = Thương hiệu và Pháp luật | tag',
  'VTC News = vê tê xê niu | tag',
  'VTC = vê tê xê | tag',
  'Zing = dinh | tag',
  'ZingNews = dinh niu | tag',
  'VietNamNet = Việt Nam nét | tag',
  'Vietnamnet = Việt Nam nét | tag',
  'VNN = Việt Nam nét | tag',
  'NLĐ.VN = Người Lao Động chấm vê en | tag',
  'ĐĐK = Đại Đoàn Kết | tag',
  // papers whose letters mean nothing else ("(ĐTCK) Trong …", "GD&TĐ - …", "GDVN- …", "báo GDVN")
  'ĐTCK = Đầu tư Chứng khoán',
  'GD&TĐ = Giáo dục và Thời đại',
  'GDVN = Giáo dục Việt Nam',
  'KT&ĐT = Kinh tế và Đô thị',
  'SGTT = Sài Gòn Tiếp Thị',
  'KTSG = Kinh tế Sài Gòn | tag',
  'PNVN = Phụ nữ Việt Nam | tag',
  // datelines in English or unaccented capitals at the head of an article ("SAIGON -- …", "HANOI - …", "HANOI, Jan 5 (Reuters) -")
  'SAIGON = Sài Gòn | dateline',
  'SAI GON = Sài Gòn | dateline',
  'HANOI = Hà Nội | dateline',
  'HA NOI = Hà Nội | dateline',
  'DANANG = Đà Nẵng | dateline',
  'DA NANG = Đà Nẵng | dateline',
  'HAIPHONG = Hải Phòng | dateline',
  'HAI PHONG = Hải Phòng | dateline',
  'HUE = Huế | dateline',
  'CAN THO = Cần Thơ | dateline',
  'NHA TRANG = Nha Trang | dateline',
  'DALAT = Đà Lạt | dateline',
  'DA LAT = Đà Lạt | dateline',
  'VUNG TAU = Vũng Tàu | dateline',
  'HO CHI MINH CITY = thành phố Hồ Chí Minh | dateline',
  // sources and photo credits ("Nguồn: THX/TTXVN", "Ảnh: BVCC")
  'THX = Tân Hoa xã',
  'VNA = vê en a',
  'JAXA = gia xa',
  'BVCC = bệnh viện cung cấp',
  'NVCC = nhân vật cung cấp',
  'GĐCC = gia đình cung cấp',
  'ĐVCC = đơn vị cung cấp',
  'TGCC = tác giả cung cấp',
  'CACC = công an cung cấp',
  // a credit's source said so only in a credit ("Ảnh: NSX cung cấp"; on a label "NSX" is a date)
  'NSX = nhà sản xuất | credit',
  // football clubs ("CLB CAHN", "HAGL thắng SLNA")
  'CAHN = Công an Hà Nội',
  'HAGL = Hoàng Anh Gia Lai',
  'SLNA = Sông Lam Nghệ An',
  'HN = Hà Nội',
  'B.BD = bê ca mếch Bình Dương',
  'HLHT = Hồng Lĩnh Hà Tĩnh',
  // stock exchanges as traders say them ("sàn HoSE", "UPCoM"; HNX is spelt)
  'HoSE = hô xê',
  'HOSE = hô xê',
  'UPCoM = úp com',
  'UPCOM = úp com',
  // the national football league, its "V" said the English way
  'V-League = vi lích',
  'V.League = vi lích',
  'VN-Index = vê en in đéc',
  'VN-INDEX = vê en in đéc',
  'HNX-Index = hát en ích in đéc',
  'UPCoM-Index = úp com in đéc',
  // containers: twenty-foot equivalent units ("12,4 triệu TEUs")
  'TEU = tê e u',
  'TEUs = tê e u',
  // brands written in capitals and said as a word ("OPPO Find X9 Pro")
  'OPPO = ốp pô',
  'ASUS = a xút',
  'SONY = xô ni',
  // artists' stage names ("Sơn Tùng M-TP")
  'M-TP = em tê pê',
  'M-Tp = em tê pê',
];

interface Entry {
  say: string;
  when?: When;
}

function parseTable(lines: readonly string[]): Map<string, Entry> {
  const table = new Map<string, Entry>();
  for (const line of lines) {
    const [pair = '', when] = line.split(' | ');
    const at = pair.indexOf(' = ');
    const written = pair.slice(0, at);
    const say = pair.slice(at + 3);
    table.set(written, when ? { say, when: when as When } : { say });
  }
  return table;
}

/** The dictionary, by the abbreviation as written. */
export const VI_ABBREVIATIONS: ReadonlyMap<string, Entry> = parseTable(TABLE);

/** The entries by their key without spaces: a key's spaces may be left out or be no-break ones ("VH,TT&DL"). */
const UNSPACED: ReadonlyMap<string, Entry> = new Map(
  [...VI_ABBREVIATIONS].map(([written, entry]) => [written.replace(/ /g, ''), entry]),
);

/** Words before a phone number ("ĐT 028 3822 4455", "Hotline: 1900 1234"), read so there and only there. */
const PHONE_TABLE = [
  'ĐT = điện thoại',
  'SĐT = số điện thoại',
  'ĐTDĐ = điện thoại di động',
  'Tel = điện thoại',
  'TEL = điện thoại',
  'Tel. = điện thoại',
  'Hotline = hót lai',
  'hotline = hót lai',
  'HOTLINE = hót lai',
];
export const VI_PHONE_WORDS: ReadonlyMap<string, Entry> = parseTable(PHONE_TABLE);
/** A phone number after a word: "0…", "(0…", "+84…", "1900…", "1800…", maybe after ":" or ".". */
const THEN_PHONE = /^[ \u00A0]*[:.]?[ \u00A0]*(?:\+\d|\(?0\d|1[89]00)/u;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ \u00A0]?');

/** A currency before an amount ("USD 50") or a rate ("triệu USD/năm") is left to the money rules. */
const currencyEnd = (key: string) => (VI_CURRENCIES.has(key) ? '(?![ \u00A0]?\\d|/\\p{Ll})' : '');

const keys = [...new Set([...VI_ABBREVIATIONS.keys(), ...VI_PHONE_WORDS.keys()])].sort(
  (a, b) => b.length - a.length,
);
/**
 * Titles joined by a hyphen or a full stop ("PGS-TS", "PGS.TS.BS", "GS-TSKH", "ThS-BS", "BS-CKII"):
 * each title read, the joins silent. "CK1", "CK2" are titles only in such a chain.
 */
const TITLE_PARTS: ReadonlyMap<string, string> = new Map([
  ...[
    'GS',
    'PGS',
    'TS',
    'TSKH',
    'ThS',
    'Ths',
    'BS',
    'BSCKI',
    'BSCKII',
    'CKI',
    'CKII',
    'BSNT',
    'KTS',
    'DS',
    'ĐD',
    'KS',
    'LS',
    'NSND',
    'NSƯT',
    'NGND',
    'NGƯT',
    'TTND',
    'TTƯT',
  ].map((k) => [k, VI_ABBREVIATIONS.get(k)?.say ?? k] as const),
  ['CK1', 'chuyên khoa một'],
  ['CK2', 'chuyên khoa hai'],
]);
const TITLE_PART = `(?:${[...TITLE_PARTS.keys()].sort((a, b) => b.length - a.length).join('|')})`;
const TITLE_JOIN = /\.?-|\./u;
/** Two titles or more joined, a full stop after the last dropped before a name. */
const TITLE_CHAIN = `${TITLE_PART}(?:(?:\\.?-|\\.)${TITLE_PART})+(?:\\.(?=[ \u00A0]+\\p{Lu}))?(?![\\p{L}\\p{N}_&]|[-.][\\p{L}\\p{N}])`;
const TITLE_CHAIN_RE = new RegExp(`^${TITLE_CHAIN}$`, 'u');

/** An entry read before a number may touch it ("QL1A", "Q.1"). */
const beforeNumber = (key: string) => {
  const when = VI_ABBREVIATIONS.get(key)?.when;
  return when === 'number' || when === 'address';
};
// A key that ends with a letter ends a word, unless it is read before a number ("QL1A"); one that
// ends with "." or ":" may touch a number ("Q.1"). A single capital after the number is a code's ("QL1A").
/** A letter and its full stop before another initial ("P.A.", "T.N"): initials, not an address's "P.". */
const INITIALS_AHEAD = '(?![A-ZĐ](?:\\.|(?![\\p{L}\\p{N}_])))';
/** What must not follow a key: a key ending in "." or ":" may touch anything. */
const keyEnd = (k: string) =>
  /^[A-ZĐ]\.$/u.test(k)
    ? INITIALS_AHEAD
    : /[.:]$/.test(k)
      ? ''
      : `(?![\\p{L}${beforeNumber(k) ? '' : '\\p{N}'}_&])${currencyEnd(k)}`;
/**
 * The keys, longest first, each with its end; neighbours with the same end share one group
 * ("(?:UBND|HĐND)(?!…)" matches as "UBND(?!…)|HĐND(?!…)" does, in the same order), which keeps the
 * rules' one regular expression small: past 20 KB of pattern, V8 stops optimising it and every
 * rule gets several times slower.
 */
function keysPattern(sorted: readonly string[]): string {
  const groups: { end: string; keys: string[] }[] = [];
  for (const k of sorted) {
    const end = keyEnd(k);
    const last = groups.at(-1);
    if (last && last.end === end) last.keys.push(escape(k));
    else groups.push({ end, keys: [escape(k)] });
  }
  return groups.map((g) => `(?:${g.keys.join('|')})${g.end}`).join('|');
}
/** The small letters entries begin with ("v.v.", "ko", "hotline"): where a match may start, besides a capital. */
const SMALL_INITIALS = [...new Set(keys.map((k) => k.charAt(0)).filter((c) => /\p{Ll}/u.test(c)))].join('');
const PATTERN = `(?=[\\p{Lu}${SMALL_INITIALS}])(?<![\\p{L}\\p{N}_.&])(?:${TITLE_CHAIN}|(?:${keysPattern(keys)})(-?\\d{1,4}(?![\\p{N}]|[.,]\\p{N})(?:[A-ZĐ](?![\\p{L}\\p{N}_]))?)?)`;

const SPACE_THEN_NAME = /^[ \u00A0]+\p{Lu}/u;
/** A name written against an abbreviation's full stop ("Q.Bình Thạnh", "TP.Hà Nội"). */
const GLUED_NAME = /^\p{Lu}\p{Ll}/u;
const THEN_NUMBER = /^[ \u00A0]*\p{N}/u;
/** A place's name or an administrative level after "CA" ("CA Đồng Nai", "CA tỉnh", "CA TP.HCM"). */
const THEN_PLACE =
  /^[ \u00A0]+(?:\p{Lu}|(?:tỉnh|huyện|quận|xã|phường|thị xã|thị trấn|thành phố|phố|thôn)(?!\p{L}))/u;
/** A sport after "LĐ" ("LĐ bóng đá", "LĐ điền kinh"). */
const THEN_SPORT =
  /^[ \u00A0]+(?:bóng|điền kinh|bơi|quần vợt|cầu lông|bắn|cờ|võ|vật|quyền anh|xe đạp|thể|judo|karate|taekwondo|futsal|golf|đua)/u;
const THEN_YEAR = /^[ \u00A0]*:?[ \u00A0]*(?:1[89]|20)\d{2}(?!\d)/u;
/** A site tag's place: the start of the text or a line, maybe after "(" ("(CAO) Tối …", "GĐXH - …"). */
const TAG_START = /(?:^|\n)[ \t\u00A0]*\(?$/u;
/** After a site tag: a dash, a bar or a colon, or a closing bracket and then one of those or a capital. */
const TAG_END = /^(?:\)[ \u00A0]*(?:[-–—|:]|\p{Lu})|[ \u00A0]*[-–—|:])/u;
/** A foreign name written against the full stop ("P.Troussier"): a capitalised word that is no Vietnamese syllable. */
function gluedForeignName(ctx: RuleContext): boolean {
  const word = /^\p{Lu}\p{L}*/u.exec(ctx.input.slice(ctx.end, ctx.end + 24))?.[0];
  return !!word && /^[A-Za-z]{3,}$/.test(word) && !VI_SYLLABLE.test(word);
}
/** A photo credit or a byline just before: "Ảnh: ", "ẢNH:", "Bài và ảnh: ". */
const CREDIT_START = /(?:Ảnh|ẢNH|ảnh|Bài|BÀI|Theo|THEO|Nguồn|NGUỒN|Clip|Video)[ \u00A0]*:?[ \u00A0]*$/u;
const ADDRESS_START = /(?:^|[,(;:\n])[ \u00A0]*$/u;
const AFTER_COMPANY = /(?:công ty|Công ty|CÔNG TY|Cty|CTy)[ \u00A0]+$/u;

function holds(when: When | undefined, ctx: RuleContext): boolean {
  const rest = ctx.input.slice(ctx.end, ctx.end + 4);
  const before = ctx.input.slice(Math.max(0, ctx.index - 12), ctx.index);
  switch (when) {
    case undefined:
    case 'end':
    case 'title':
      return true;
    case 'name':
      return SPACE_THEN_NAME.test(rest);
    case 'number':
      return THEN_NUMBER.test(rest);
    case 'address':
      return (
        THEN_NUMBER.test(rest) ||
        GLUED_NAME.test(rest) ||
        (SPACE_THEN_NAME.test(rest) && ADDRESS_START.test(before))
      );
    case 'company':
      return AFTER_COMPANY.test(before);
    case 'credit':
      return (
        CREDIT_START.test(ctx.input.slice(Math.max(0, ctx.index - 16), ctx.index)) ||
        /^[ \u00A0]+(?:cung cấp|CUNG CẤP)/u.test(ctx.input.slice(ctx.end, ctx.end + 9))
      );
    case 'year':
      return THEN_YEAR.test(ctx.input.slice(ctx.end, ctx.end + 8));
    case 'place':
      return THEN_PLACE.test(ctx.input.slice(ctx.end, ctx.end + 12));
    case 'sport':
      return THEN_SPORT.test(ctx.input.slice(ctx.end, ctx.end + 12));
    case 'medal':
      return /^[ \u00A0]+(?:vàng|bạc|đồng|Vàng|Bạc|Đồng)(?!\p{L})/u.test(
        ctx.input.slice(ctx.end, ctx.end + 8),
      );
    case 'foreign': {
      const word = /^[ \u00A0]+(\p{Lu}\p{L}*)/u.exec(ctx.input.slice(ctx.end, ctx.end + 24))?.[1];
      return !!word && /^[A-Za-z]{3,}$/.test(word) && !VI_SYLLABLE.test(word);
    }
    case 'dateline':
      return (
        (ctx.index === 0 ||
          /(?:^|\n)[ \t\u00A0]*$/u.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index))) &&
        /^[ \u00A0]*[-–—,(]/u.test(rest)
      );
    case 'tag': {
      const from = Math.max(0, ctx.index - 8);
      const lead = ctx.input.slice(from, ctx.index);
      return (from === 0 || lead.includes('\n')) && TAG_START.test(lead) && TAG_END.test(rest);
    }
  }
}

/** "." when a new sentence or line follows, so reading "v.v." keeps the sentence's end. */
function keptFullStop(ctx: RuleContext): string {
  const next = /^[ \t\u00A0]*(.)?/su.exec(ctx.input.slice(ctx.end, ctx.end + 8))?.[1];
  return next === undefined || next === '\n' || /\p{Lu}/u.test(next) ? '.' : '';
}

/** The rule that reads the dictionary's entries where their condition holds. */
export const vietnameseAbbreviationRule: Rule = {
  name: 'abbreviation',
  pattern: PATTERN,
  rewrite([whole, digits], ctx) {
    if (!whole) return undefined;
    if (TITLE_CHAIN_RE.test(whole))
      return whole
        .replace(/\.$/u, '')
        .split(TITLE_JOIN)
        .map((part) => TITLE_PARTS.get(part) ?? part)
        .join(' ');
    // "Q.1", "P.12": the number: the number written against the abbreviation is read with it.
    const written = digits ? whole.slice(0, whole.length - digits.length) : whole;
    const phoneWord = digits ? undefined : VI_PHONE_WORDS.get(written);
    if (phoneWord && THEN_PHONE.test(ctx.input.slice(ctx.end, ctx.end + 8))) return phoneWord.say;
    // "đường huyện (ĐH)", and "ĐH" after it: the words the text defined it as (`./vi-acronym-definitions`).
    const defined = digits ? undefined : definedAcronym(written, ctx);
    if (defined) return defined;
    const entry = VI_ABBREVIATIONS.get(written) ?? UNSPACED.get(written.replace(/[ \u00A0]/g, ''));
    if (!entry) return undefined;
    // "Chuyến bay có số hiệu VN": an airline's code, spelt.
    if (written === 'VN' && FLIGHT_CODE_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 16), ctx.index)))
      return { out: spellVi(written), name: 'acronym' };
    // "HSG (Công ty CP Tập đoàn Hoa Sen)", "mã HSG": a stock's ticker, spelt.
    if (!digits && /^[A-Z]{3}$/u.test(written) && isTicker(ctx))
      return { out: spellVi(written), name: 'acronym' };
    // "TT 43", "TT13": a circular and its number, "thông tư".
    if (
      written === 'TT' &&
      (digits ? /^\d+$/u.test(digits) : THEN_NUMBER.test(ctx.input.slice(ctx.end, ctx.end + 4)))
    )
      return digits
        ? [
            piece('thông tư', 0, written.length),
            piece(` ${viCardinal(digits)}`, written.length, whole.length),
          ]
        : 'thông tư';
    if (digits) {
      // "COVID-19": a number after a hyphen goes with any entry; one written against it only with a place or a title of a number.
      if (!digits.startsWith('-') && entry.when !== 'address' && entry.when !== 'number') return undefined;
      const [, numberText = '', letter] = /^-?(\d+)(\D)?$/u.exec(digits) ?? [];
      const number = `${viCardinal(numberText)}${letter ? ` ${spellVi(letter)}` : ''}`;
      return [piece(entry.say, 0, written.length), piece(` ${number}`, written.length, whole.length)];
    }
    // "Ảnh: Q.Huy": in a credit, a letter before a name is the author's initial; so is one glued to a
    // foreign name ("HLV P.Troussier").
    if (
      /^[A-ZĐ]\.$/u.test(written) &&
      (CREDIT_START.test(ctx.input.slice(Math.max(0, ctx.index - 16), ctx.index)) || gluedForeignName(ctx))
    )
      return `${spellVi(written)}${GLUED_NAME.test(ctx.input.slice(ctx.end, ctx.end + 2)) ? ' ' : ''}`;
    // "Nguyễn H. Nam", "ông Phạm Minh H. (48 tuổi)": a name's initial, said by its letter name,
    // its full stop dropped where the sentence goes on.
    if (!holds(entry.when, ctx) && /^[A-ZĐ]\.$/u.test(written)) {
      const rest = ctx.input.slice(ctx.end, ctx.end + 4);
      // "tại Q. Bình Thạnh": after a lower-case word and before a name, an address part.
      const nameBefore = /\p{Lu}\p{L}*[ \u00A0]+$/u.test(
        ctx.input.slice(Math.max(0, ctx.index - 12), ctx.index),
      );
      if (entry.when === 'address' && !nameBefore && SPACE_THEN_NAME.test(rest)) return entry.say;
      const goesOn = SPACE_THEN_NAME.test(rest) || /^[ \u00A0]*(?:[(,;]|\p{Ll})/u.test(rest);
      return { out: `${spellVi(written)}${goesOn ? '' : '.'}`, name: 'acronym' };
    }
    if (!holds(entry.when, ctx))
      return /^[A-ZĐ]{2,5}$/u.test(written) ? { out: spellVi(written), name: 'acronym' } : undefined;
    // "TP.Hà Nội", "TP.HỒ CHÍ MINH": the words, then a space before the name written against the full stop.
    if (written.endsWith('.') && /^\p{Lu}\p{L}/u.test(ctx.input.slice(ctx.end, ctx.end + 2)))
      return `${entry.say} `;
    const endsSentence =
      entry.when === 'end' ||
      (entry.when === 'title' &&
        written.endsWith('.') &&
        !SPACE_THEN_NAME.test(ctx.input.slice(ctx.end, ctx.end + 4)));
    if (endsSentence) return `${entry.say}${keptFullStop(ctx)}`;
    // "GDVN- Theo": a dash written against a tag is a pause after its words.
    return /^[-–—][ \u00A0]/u.test(ctx.input.slice(ctx.end, ctx.end + 2)) ? `${entry.say} ` : entry.say;
  },
};

/** Words before an airline's code ("số hiệu VN", "chuyến bay VN"). */
const FLIGHT_CODE_BEFORE = /(?:số hiệu|mã hiệu|chuyến bay|hãng)[ \u00A0]+$/iu;

/** The company a ticker stands for, in brackets after it; or "mã" (a stock's code) before it. */
const COMPANY_AFTER = /^[ \u00A0]*\((?:Công ty|Tổng [Cc]ông ty|Tập đoàn|Ngân hàng|CTCP)[ \u00A0]/u;
const CODE_BEFORE = /(?:^|[^\p{L}])(?:mã|Mã|cổ phiếu)[ \u00A0]+(?:[A-Z]{3},?[ \u00A0]+)*$/u;

function isTicker(ctx: RuleContext): boolean {
  return (
    COMPANY_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 16)) ||
    CODE_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 40), ctx.index))
  );
}

/** A source or photo credit before the slash on its line: "Nguồn: THX/TTXVN", "(Ảnh: AFP/TTXVN)". */
const CREDIT_BEFORE = /(?:Nguồn|NGUỒN|Ảnh|ẢNH|Theo|Video|Clip|Đồ họa)[ \u00A0]*:?[^\n()/:;.!?]*$/u;

/** The slash between two sources of a credit ("THX/TTXVN"): a comma, as a reader says the list. */
export const creditSlashRule: Rule = {
  name: 'abbreviation',
  pattern: '(?=/)(?<=[\\p{L}\\p{N}])/(?=\\p{Lu})',
  rewrite: (_, ctx) =>
    CREDIT_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 40), ctx.index)) ? ', ' : undefined,
};
