package org.sparkmc.spark.io;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.sparkmc.core.InvalidInputException;

/**
 * Checks the lines of one text file as strict UTF-8 (a byte that is not UTF-8 is an error naming the file, line and
 * column, never a silent U+FFFD) and finds the byte-order mark a file may start with, which every reader drops. One
 * instance per file and thread: it reuses its decoder.
 */
public final class Utf8Lines {
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    /** What every refusal of a byte that is not UTF-8 advises. */
    public static final String CONVERT = "sparkmc reads text as UTF-8: convert the file (e.g. iconv -f latin1 -t "
            + "utf-8)";
    private final String file;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private CharBuffer chars = CharBuffer.allocate(256);

    /** Lines of {@code file}, named so in messages. */
    public Utf8Lines(String file) {
        this.file = file;
    }

    /** The length of the UTF-8 byte-order mark at the start of {@code bytes} (3), or 0 when there is none. */
    public static int bomLength(byte[] bytes, int length) {
        return length >= 3 && bytes[0] == BOM[0] && bytes[1] == BOM[1] && bytes[2] == BOM[2] ? 3 : 0;
    }

    /** True when {@code length} bytes from {@code offset} are well-formed UTF-8. */
    public boolean isValid(byte[] bytes, int offset, int length) {
        return firstError(bytes, offset, length) < 0;
    }

    /**
     * Checks {@code length} bytes from {@code offset} as one line.
     *
     * @param line the 1-based line number, for the message
     * @throws InvalidInputException naming the file, line, column and the offending byte
     */
    public void check(byte[] bytes, int offset, int length, long line) {
        int at = firstError(bytes, offset, length);
        if (at >= 0 && line == 1 && at == offset && startsLikeUtf16(bytes, offset, length)) { // iconv -f latin1: NULs
            throw new InvalidInputException(file + ": the file is UTF-16 (it starts with UTF-16's byte-order mark); "
                    + "sparkmc reads text as UTF-8: convert the file (e.g. iconv -f utf-16 -t utf-8)");
        }
        if (at >= 0) {
            throw new InvalidInputException(String.format("%s line %d column %d: byte 0x%02X (byte %d of the line) is"
                    + " not UTF-8; " + CONVERT, file,
                    line, chars.position() + 1, bytes[at] & 0xff, at - offset + 1));
        }
    }

    /** Whether the bytes start with UTF-16's byte-order mark, little- or big-endian (FF FE, FE FF). */
    private static boolean startsLikeUtf16(byte[] bytes, int offset, int length) {
        int a = length >= 2 ? bytes[offset] & 0xff : 0;
        int b = length >= 2 ? bytes[offset + 1] & 0xff : 0;
        return a == 0xFF && b == 0xFE || a == 0xFE && b == 0xFF;
    }

    /** The index of the first byte that is not UTF-8 (the characters before it in {@link #chars}), or -1. */
    private int firstError(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end && bytes[i] >= 0) {
            i++; // ASCII needs no decoder
        }
        if (i == end) {
            return -1;
        }
        if (chars.capacity() < length) {
            chars = CharBuffer.allocate(length);
        }
        chars.clear();
        decoder.reset();
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
        CoderResult result = decoder.decode(in, chars, true);
        if (!result.isError()) {
            result = decoder.flush(chars);
        }
        return result.isError() ? in.position() : -1;
    }
}
