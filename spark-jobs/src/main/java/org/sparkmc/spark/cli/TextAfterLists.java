package org.sparkmc.spark.cli;

import org.sparkmc.core.InvalidInputException;

/**
 * Refuses HOCON text that HOCON would read, without a word, as something else than what it says, after a list:
 * <ul>
 * <li>two lists side by side on one line, {@code [[1, 1] [0, 1]]}: HOCON joins them into one ("array
 * concatenation", here {@code [[1, 1, 0, 1]]}), so a matrix typed with a comma missing between its rows would be
 * read as another matrix;</li>
 * <li>an unquoted word after a list or an object on its line, {@code [1] x [2]} or {@code {a: 1} x}: Typesafe
 * Config drops the word ({@code [1, 2]}, {@code {a: 1}}).</li>
 * </ul>
 * Lists on separate lines are separate elements, as HOCON reads them, and are accepted; so are the same characters
 * inside a quoted string or a comment ({@code #}, {@code //}), objects side by side (HOCON merges them, as it says),
 * a substitution after a list ({@code [1] ${x}}) and text after a substitution ({@code ${dir}/out}). Model data
 * files are read as JSON, which refuses all of these itself, so only HOCON needs this check.
 */
final class TextAfterLists {
    /** What is wrong with lists side by side, and what to write instead. */
    static final String SIDE_BY_SIDE = "two lists side by side, \"] [\", are joined into one list by HOCON; put a "
            + "comma between them if they are elements of a list, or write them as one list";
    /** What is wrong with a word after a list or an object, and what to write instead. */
    static final String WORD_AFTER = "a word after a list or an object on its line is not read as written: HOCON "
            + "drops it (\"[1] x\" reads as [1]) or refuses the line; put a comma before it, or start a new line";

    private TextAfterLists() {
    }

    /**
     * Refuses a config file's text with lists side by side or a word after a list or an object, naming the file, line
     * and column of the first list's closing bracket or of the word
     * ({@code run.conf:3:14: two lists side by side, …}).
     *
     * @param file the file as the user named it
     * @throws InvalidInputException if the text holds such lists
     */
    static void checkFile(String file, String text) {
        Finding found = find(text);
        if (found != null) {
            throw new InvalidInputException(file + ":" + found.at().line() + ":" + found.at().column() + ": "
                    + found.problem());
        }
    }

    /**
     * Refuses a value given on the command line with lists side by side or a word after a list or an object, naming
     * it ({@code --param F=…: two lists side by side, …}).
     *
     * @param what the option and value as the message names them
     * @throws InvalidInputException if the value holds such lists
     */
    static void checkValue(String what, String value) {
        Finding found = find(value);
        if (found != null) {
            throw new InvalidInputException(what + ": " + found.problem());
        }
    }

    /** A place in the text: line and column (of code points), from 1. */
    record Position(int line, int column) {
    }

    /** What is wrong ({@link #SIDE_BY_SIDE} or {@link #WORD_AFTER}) and where. */
    record Finding(Position at, String problem) {
    }

    /**
     * The first of: a list's closing bracket followed on its line by another list's opening bracket, with only
     * whitespace between them (found at the closing bracket); an unquoted word after a list's or an object's closing
     * bracket on its line (found at the word). Quoted strings and comments do not count. Null when there is none. A
     * leading byte-order mark is not counted, as HOCON drops it.
     */
    static Finding find(String text) {
        int start = text.startsWith("\ufeff") ? 1 : 0;
        int line = 1;
        int lineStart = start;
        Position closed = null; // the last ']' or '}' if only whitespace followed it on its line
        boolean list = false; // whether that was a ']'
        int i = start;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                lineStart = i + 1;
                closed = null;
                i++;
            } else if (c == '#' || text.startsWith("//", i)) {
                i = endOfLine(text, i);
            } else if (text.startsWith("\"\"\"", i)) {
                int end = endOfTripleQuoted(text, i + 3);
                for (int j = i; j < end; j++) {
                    if (text.charAt(j) == '\n') {
                        line++;
                        lineStart = j + 1;
                    }
                }
                closed = null;
                i = end;
            } else if (c == '"') {
                closed = null;
                i = endOfQuoted(text, i + 1);
            } else if (text.startsWith("${", i)) { // a substitution: its closing brace ends no object
                closed = null;
                int lineEnd = endOfLine(text, i); // one not closed on its line is HOCON's to refuse
                int end = text.indexOf('}', i);
                i = end < 0 || end > lineEnd ? lineEnd : end + 1;
            } else if (c == '[' && closed != null && list) {
                return new Finding(closed, SIDE_BY_SIDE);
            } else if (closed != null && startsUnquotedText(c)) {
                return new Finding(new Position(line, text.codePointCount(lineStart, i) + 1), WORD_AFTER);
            } else {
                if (c == ']' || c == '}') {
                    closed = new Position(line, text.codePointCount(lineStart, i) + 1);
                    list = c == ']';
                } else if (!isSpaceWithinLine(c)) {
                    closed = null;
                }
                i++;
            }
        }
        return null;
    }

    /**
     * Whether {@code c} starts HOCON's unquoted text: not whitespace and none of the characters HOCON keeps for its
     * syntax (a comment's {@code //} was dealt with before).
     */
    private static boolean startsUnquotedText(char c) {
        return !isSpaceWithinLine(c) && "$\"{}[]:=,+#`^?!@*&\\".indexOf(c) < 0;
    }

    private static int endOfLine(String text, int from) {
        int end = text.indexOf('\n', from);
        return end < 0 ? text.length() : end;
    }

    /** The index after a quoted string's closing quote (or its line's end, where HOCON refuses it), from its text. */
    private static int endOfQuoted(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i + 1;
            } else if (c == '\n') {
                return i;
            }
        }
        return text.length();
    }

    /** The index after a triple-quoted string's closing quotes (quotes beyond three belong to the string). */
    private static int endOfTripleQuoted(String text, int from) {
        int close = text.indexOf("\"\"\"", from);
        if (close < 0) {
            return text.length();
        }
        int end = close + 3;
        while (end < text.length() && text.charAt(end) == '"') {
            end++;
        }
        return end;
    }

    /** Whitespace as HOCON reads it, other than the newline that separates values. */
    private static boolean isSpaceWithinLine(char c) {
        return c != '\n' && (Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\ufeff');
    }
}
