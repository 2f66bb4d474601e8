/**
 * Given names that say a person's gender, English and Vietnamese, for a cast whose speakers are
 * named without a title (`Jane`, `said Elizabeth`, `Lan hỏi`). Written for this project (no
 * outside list: each name is one most people of its language give to one gender; names given to
 * both, `Leslie`, `Minh`, `An`, `Thanh`, are left out, so they stay unknown).
 */

import type { Gender } from '../../shared/voices';

const ENGLISH_FEMALE = `Abigail Ada Agnes Alice Amanda Amelia Amy Angela Ann Anna Anne Annie Arabella Barbara
Beatrice Bella Betsy Betty Bridget Caroline Catherine Cecilia Charlotte Chloe Christina Clara Claire
Cora Dinah Dorothy Edith Eleanor Elinor Eliza Elizabeth Ella Ellen Eloise Emily Emma Esther
Fanny Flora Frances Georgiana Grace Hannah Harriet Helen Henrietta Isabel Isabella Jane Janet Jenny
Jessica Joan Josephine Judith Julia Juliet Kate Katherine Kitty Laura Lizzy Lucy Lydia Margaret
Maria Marianne Martha Mary Matilda Meg Molly Nancy Nora Olivia Penelope Phoebe Rachel Rebecca Rose
Ruth Sarah Sophia Sophie Susan Sybil Victoria Violet Wendy Winifred`;
const ENGLISH_MALE = `Adam Albert Alexander Alfred Andrew Anthony Arthur Benjamin Bertram Charles Charley
Christopher Daniel David Edmund Edward Edwin Frank Frederick Gabriel George Gilbert Harold Harry
Henry Hugh Jack Jacob James John Jonathan Joseph Lewis Luke Mark Matthew Michael Nicholas Oliver
Patrick Paul Peter Philip Ralph Richard Robert Samuel Simon Stephen Thomas Timothy Walter William
Tom Will`;
const VIETNAMESE_FEMALE = `Bích Cúc Diệp Dung Duyên Đào Hà Hằng Hạnh Hoa Huệ Hương Hường Lan Liên Liễu Loan
Lụa Mai Mận Ngà Nga Nguyệt Nhung Nụ Oanh Phượng Quyên Quỳnh Tuyết Thắm Thoa Thu Thúy Trang Trinh Vân
Xuân Yến`;
const VIETNAMESE_MALE = `Bảo Cường Dũng Đức Hải Hiếu Hùng Huy Khải Khang Lâm Lực Mạnh Nam Phong
Quang Sơn Tài Thắng Thành Tiến Toàn Trung Tuấn Tùng Vinh Vũ`;

const GENDERS = new Map<string, Gender>();
for (const [list, gender] of [
  [ENGLISH_FEMALE, 'female'],
  [ENGLISH_MALE, 'male'],
  [VIETNAMESE_FEMALE, 'female'],
  [VIETNAMESE_MALE, 'male'],
] as const) {
  for (const name of list.split(/\s+/)) GENDERS.set(name.normalize('NFC'), gender);
}

/**
 * The gender a person's name gives by its given name: an English name's first word (`Jane
 * Bennet`), a Vietnamese name's last (`Nguyễn Thị Lan`); null when neither is in the lists.
 */
export function givenNameGender(bareName: string): Gender | null {
  const words = bareName.normalize('NFC').split(/\s+/);
  return GENDERS.get(words[0]!) ?? GENDERS.get(words.at(-1)!) ?? null;
}
