package dev.shuttle.bench.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One line of an HTTP response head, held as the bytes it came in and read as characters in place: the generator
 * parses every response under load, and a {@code String} per line was most of what its JVM allocated
 * ({@link HttpConnection}). Only what a parse there needs is here; anything that allocates ({@link #toString},
 * {@link #subSequence}) is for error messages.
 */
final class AsciiLine implements CharSequence {
    private final byte[] bytes;
    private int length;

    AsciiLine(int capacity) {
        bytes = new byte[capacity];
    }

    void clear() {
        length = 0;
    }

    /** @throws IOException if the line is longer than this one's capacity */
    void append(int b) throws IOException {
        if (length == bytes.length) {
            throw new IOException("response header line longer than " + bytes.length + " bytes: `" + this + "...`");
        }
        bytes[length++] = (byte) b;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " of a line of " + length);
        }
        return (char) (bytes[index] & 0xff);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }

    /** Whether the line starts with {@code prefix}, ASCII letters compared ignoring case, as header names are. */
    boolean startsWithIgnoringCase(String prefix) {
        if (prefix.length() > length) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (toLower(charAt(i)) != toLower(prefix.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The first index at or after {@code from} that holds neither a space nor a tab, or the length. */
    int skipSpaces(int from) {
        int i = from;
        while (i < length && isSpace(charAt(i))) {
            i++;
        }
        return i;
    }

    /** The first index at or after {@code from} that holds {@code c}, or -1. */
    int indexOf(char c, int from) {
        for (int i = from; i < length; i++) {
            if (charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The decimal number between {@code from} and {@code to}, spaces and tabs around it ignored.
     *
     * @throws IOException quoting the line, if that is not a number that fits a long
     */
    long parseLong(int from, int to) throws IOException {
        int start = skipSpaces(from);
        int end = to;
        while (end > start && isSpace(charAt(end - 1))) {
            end--;
        }
        try {
            return Long.parseLong(this, start, end, 10);
        } catch (NumberFormatException e) {
            throw new IOException("malformed `" + this + "`: not a number at " + start + "-" + end);
        }
    }

    /**
     * The status code of a status line, {@code HTTP/1.1 200 OK}.
     *
     * @throws IOException quoting the line, if it is not a status line
     */
    int statusCode() throws IOException {
        if (length < 12 || !startsWithIgnoringCase("HTTP/") || charAt(8) != ' ') {
            throw new IOException("malformed status line `" + this + "`");
        }
        return (int) parseLong(9, 12);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    private static char toLower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}
