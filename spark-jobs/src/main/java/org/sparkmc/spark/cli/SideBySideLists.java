package org.sparkmc.spark.cli;

import org.sparkmc.core.InvalidInputException;

/**
 * Refuses HOCON text that has two lists side by side on one line, {@code [[1, 1] [0, 1]]}: HOCON joins such lists
 * into one ("array concatenation", here {@code [[1, 1, 0, 1]]}), so a matrix typed with a comma missing between its
 * rows would be read as another matrix without a word. Lists on separate lines are separate elements, as HOCON
 * reads them, and are accepted; so is {@code ] [} inside a quoted string or a comment ({@code #}, {@code //}).
 * Model data files are read as JSON, which refuses lists side by side itself, so only HOCON needs this check.
 */
final class SideBySideLists {
    /** What is wrong and what to write instead. */
    static final String PROBLEM = "two lists side by side, \"] [\", are joined into one list by HOCON; put a comma "
            + "between them if they are elements of a list, or write them as one list";

    private SideBySideLists() {
    }

    /**
     * Refuses a config file's text with lists side by side, naming the file, line and column of the first list's
     * closing bracket ({@code run.conf:3:14: two lists side by side, …}).
     *
     * @param file the file as the user named it
     * @throws InvalidInputException if the text holds such lists
     */
    static void checkFile(String file, String text) {
        Position at = find(text);
        if (at != null) {
            throw new InvalidInputException(file + ":" + at.line() + ":" + at.column() + ": " + PROBLEM);
        }
    }

    /**
     * Refuses a value given on the command line with lists side by side, naming it ({@code --param F=…: two lists
     * side by side, …}).
     *
     * @param what the option and value as the message names them
     * @throws InvalidInputException if the value holds such lists
     */
    static void checkValue(String what, String value) {
        if (find(value) != null) {
            throw new InvalidInputException(what + ": " + PROBLEM);
        }
    }

    /** A place in the text: line and column (of code points), from 1. */
    record Position(int line, int column) {
    }

    /**
     * The closing bracket of the first list followed on its line by another list's opening bracket, with only
     * whitespace between them, outside quoted strings and comments; null when there is none. A leading byte-order
     * mark is not counted, as HOCON drops it.
     */
    static Position find(String text) {
        int start = text.startsWith("\ufeff") ? 1 : 0;
        int line = 1;
        int lineStart = start;
        Position closed = null; // the last ']' if only whitespace followed it on its line
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
            } else if (c == '[' && closed != null) {
                return closed;
            } else {
                if (c == ']') {
                    closed = new Position(line, text.codePointCount(lineStart, i) + 1);
                } else if (!isSpaceWithinLine(c)) {
                    closed = null;
                }
                i++;
            }
        }
        return null;
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
