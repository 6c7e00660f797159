package org.sparkmc.core.smc;

import org.sparkmc.core.InvalidInputException;

/**
 * Checks that the times of an observation series increase strictly, row after row and file after file: a filter run
 * over unsorted or repeated times would silently treat them as consecutive steps. Remembers the last time seen and
 * where it was read.
 */
public final class TimeOrder {
    private double last;
    private String lastText;
    private String lastSource;
    private int lastLine;

    /**
     * Accepts the next time, read as {@code text} from column {@code column} of {@code source} at {@code line}.
     *
     * @throws InvalidInputException if it is not after the previous time (naming both lines and both times)
     */
    public void next(double time, String text, String column, String source, int line) {
        if (lastSource != null && !(time > last)) {
            String where = (source.equals(lastSource) ? "" : lastSource + " ") + "line " + lastLine;
            throw new InvalidInputException(source + " line " + line + ": time '" + column + "' is " + text
                    + (time == last ? " again (as at " + where + "); the times must increase strictly (merge or drop "
                            + "the repeated rows)"
                        : ", before " + lastText + " at " + where + "; the times must increase strictly (sort the "
                            + "rows by time)"));
        }
        last = time;
        lastText = text;
        lastSource = source;
        lastLine = line;
    }
}
