package patch

// git's base85 (base85.c) uses its own alphabet, not Ascii85's, and the Go standard library has only Ascii85;
// no maintained Go module exports git's variant, so this small encoder follows base85.c's encode_85 directly.
const en85 = "0123456789" +
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ" +
	"abcdefghijklmnopqrstuvwxyz" +
	"!#$%&()*+-;<=>?@^_`{|}~"

// encode85 appends the base85 form of data: 5 characters per 4 bytes, a short final group padded with zero
// bytes, as encode_85 does.
func encode85(dst, data []byte) []byte {
	for len(data) > 0 {
		var acc uint32
		for shift := 24; shift >= 0; shift -= 8 {
			acc |= uint32(data[0]) << shift
			data = data[1:]
			if len(data) == 0 {
				break
			}
		}
		var group [5]byte
		for i := 4; i >= 0; i-- {
			group[i] = en85[acc%85]
			acc /= 85
		}
		dst = append(dst, group[:]...)
	}
	return dst
}
