package org.sparkmc.core.bayesnet;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;

/**
 * Reads a discrete Bayesian network in the Bayesian Interchange Format (BIF 0.15, Cozman 1998; the format of
 * the bnlearn repository's networks such as ALARM).
 *
 * <p>Accepted: {@code network NAME { … }}; {@code variable NAME { type discrete [ n ] { s1, …, sn }; }};
 * {@code probability ( X | P1, P2 ) { (p1s, p2s) q1, …, qn; … }} with one row per parent configuration, or
 * {@code default q1, …;} for the rows not listed; {@code probability ( X ) { table q1, …, qn; }} for a root.
 * {@code property …;} lines and {@code //} and {@code /* *}{@code /} comments are skipped. A {@code table} for a
 * variable with parents is refused (its entry order differs between tools).
 *
 * <p>Rows that sum to 1 within 1e-6 are normalised; worse rows are refused, naming the variable and the row.
 * Every error is an {@link InvalidInputException} whose message starts with "source:line:", or
 * "source:line:column:" for a syntax error (the column of the token that is wrong, counting from 1).
 */
public final class BifReader {
    /** How far a table row's sum may be from 1 before it is refused rather than normalised. */
    public static final double ROW_TOLERANCE = 1e-6;

    private final Tokenizer in;
    private final String source;
    private final Map<String, Integer> index = new LinkedHashMap<>();
    private final List<String> names = new ArrayList<>();
    private final List<String[]> states = new ArrayList<>();
    private final List<Integer> declaredAt = new ArrayList<>();
    private final Map<Integer, int[]> parents = new HashMap<>();
    private final Map<Integer, double[]> tables = new HashMap<>();
    private final Map<Integer, Integer> blockAt = new HashMap<>();
    private String networkName = "unknown";
    private long tableEntries;

    private BifReader(Reader reader, String source) {
        this.in = new Tokenizer(reader, source);
        this.source = source;
    }

    /**
     * Reads a whole network.
     *
     * @param source a name for messages, e.g. the file's path
     * @throws InvalidInputException for a syntax error (with its line), an inconsistent table or a cycle
     * @throws IOException if the reader fails
     */
    public static BayesNet read(Reader reader, String source) throws IOException {
        return new BifReader(reader, source).parse();
    }

    private BayesNet parse() throws IOException {
        while (true) {
            Token t = in.next();
            if (t == null) {
                break;
            }
            switch (t.keyword()) {
                case "network" -> network();
                case "variable" -> variable(t);
                case "probability" -> probability(t);
                default -> throw in.syntax(t, "expected 'network', 'variable' or 'probability', found '" + t.text
                    + "'");
            }
        }
        int n = index.size();
        if (n == 0) {
            throw new InvalidInputException(source + ":" + in.line() + ": no variables declared");
        }
        String[] names = index.keySet().toArray(new String[0]);
        int[][] ps = new int[n][];
        double[][] cpts = new double[n][];
        for (int i = 0; i < n; i++) {
            if (!tables.containsKey(i)) {
                throw new InvalidInputException(source + ":" + declaredAt.get(i) + ": variable " + names[i]
                    + " has no probability block");
            }
            ps[i] = parents.get(i);
            cpts[i] = tables.get(i);
        }
        try {
            return new BayesNet(networkName, names, states.toArray(new String[0][]), ps, cpts);
        } catch (BayesNet.CycleException e) { // named at the block of its first variable, which lists the last
            int[] cycle = e.cycle();
            throw new InvalidInputException(source + ":" + blockAt.get(cycle[0]) + ": " + e.getMessage()
                + ": the probability block of " + names[cycle[0]] + " lists " + names[cycle[cycle.length - 1]]
                + " as a parent", e);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(source + ": " + e.getMessage(), e);
        }
    }

    private void network() throws IOException {
        networkName = in.word("a network name").text;
        in.expect("{");
        block();
    }

    /** Skips properties up to the closing brace. */
    private void block() throws IOException {
        while (true) {
            Token t = in.require("'}'");
            if (t.is("}")) {
                return;
            }
            if (!t.is("property")) {
                throw in.syntax(t, "expected 'property' or '}', found '" + t.text + "'");
            }
            skipToSemicolon();
        }
    }

    private void skipToSemicolon() throws IOException {
        while (!in.require("';'").is(";")) {
            // skip
        }
    }

    private void variable(Token at) throws IOException {
        Token nameToken = in.word("a variable name");
        String name = nameToken.text;
        if (index.containsKey(name)) {
            throw in.error(nameToken, "variable " + name + " is declared twice");
        }
        in.expect("{");
        String[] values = null;
        while (true) {
            Token t = in.require("'}'");
            if (t.is("}")) {
                break;
            }
            if (t.is("property")) {
                skipToSemicolon();
            } else if (t.is("type")) {
                if (values != null) { // the second replaced the first without a word
                    throw in.error(t, "variable " + name + " has a second 'type' line; give its states once");
                }
                Token kind = in.word("'discrete'");
                if (!kind.is("discrete")) {
                    throw in.syntax(kind, "variable " + name + ": only discrete variables are supported, found '"
                        + kind.text + "'");
                }
                in.expect("[");
                Token count = in.word("the number of states");
                int declared = parseCount(count, name);
                in.expect("]");
                in.expect("{");
                List<String> list = new ArrayList<>();
                Token v = in.word("a state name");
                list.add(v.text);
                while (true) {
                    Token sep = in.require("',' or '}'");
                    if (sep.is("}")) {
                        break;
                    }
                    if (!sep.is(",")) {
                        throw in.syntax(sep, "expected ',' or '}' in the states of " + name + ", found '" + sep.text
                            + "'");
                    }
                    list.add(in.word("a state name").text);
                }
                in.expect(";");
                if (list.size() != declared) {
                    throw in.error(count, "variable " + name + " declares " + declared + " states but lists "
                        + list.size());
                }
                if (list.stream().distinct().count() != list.size()) {
                    throw in.error(count, "variable " + name + " lists a state twice: " + list);
                }
                values = list.toArray(new String[0]);
            } else {
                throw in.syntax(t, "expected 'type', 'property' or '}' in variable " + name + ", found '" + t.text
                    + "'");
            }
        }
        if (values == null) {
            throw in.error(nameToken, "variable " + name + " has no 'type discrete [ n ] { … };' line");
        }
        index.put(name, index.size());
        names.add(name);
        states.add(values);
        declaredAt.add(at.line);
    }

    private int parseCount(Token t, String variable) {
        try {
            int n = Integer.parseInt(t.text);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw in.syntax(t, "variable " + variable + ": expected a positive number of states, found '" + t.text + "'");
    }

    private int known(Token t) {
        Integer i = index.get(t.text);
        if (i == null) {
            throw in.syntax(t, "variable " + t.text + " is not declared (probability blocks must follow the variable"
                + " declarations)");
        }
        return i;
    }

    private void probability(Token at) throws IOException {
        in.expect("(");
        Token childToken = in.word("a variable name");
        int child = known(childToken);
        if (tables.containsKey(child)) {
            throw in.error(childToken, "variable " + childToken.text + " has a second probability block");
        }
        List<Integer> ps = new ArrayList<>();
        Token t = in.require("'|' or ')'");
        if (t.is("|")) {
            while (true) {
                Token p = in.word("a parent name");
                int pi = known(p);
                if (pi == child || ps.contains(pi)) {
                    throw in.error(p, "variable " + childToken.text + " lists " + p.text
                        + " as a parent twice or of itself");
                }
                ps.add(pi);
                t = in.require("',' or ')'");
                if (t.is(")")) {
                    break;
                }
                if (!t.is(",")) {
                    throw in.syntax(t, "expected ',' or ')' in the parents of " + childToken.text + ", found '"
                        + t.text + "'");
                }
            }
        } else if (!t.is(")")) {
            throw in.syntax(t, "expected '|' or ')' after " + childToken.text + ", found '" + t.text + "'");
        }
        in.expect("{");
        String name = childToken.text;
        int k = states.get(child).length;
        int[] parentIndex = ps.stream().mapToInt(Integer::intValue).toArray();
        int[] parentStates = new int[parentIndex.length];
        for (int j = 0; j < parentIndex.length; j++) {
            parentStates[j] = states.get(parentIndex[j]).length;
        }
        try {
            tableEntries = BayesNet.addTable(tableEntries, name, k, parentStates);
        } catch (InvalidInputException tooLarge) {
            throw in.error(at, tooLarge.getMessage());
        }
        int configs = 1;
        for (int card : parentStates) {
            configs *= card;
        }
        double[] table = new double[configs * k];
        boolean[] seen = new boolean[configs];
        double[] fallback = null;
        while (true) {
            Token e = in.require("'}'");
            if (e.is("}")) {
                break;
            }
            switch (e.keyword()) {
                case "property" -> skipToSemicolon();
                case "table" -> {
                    if (parentIndex.length > 0) {
                        throw in.error(e, "variable " + name + ": a 'table' entry for a variable with parents is not"
                            + " supported; give one '(parent states) p1, …;' row per parent configuration");
                    }
                    if (seen[0]) {
                        throw in.error(e, "variable " + name + ": 'table' is given twice");
                    }
                    double[] row = numbers(name, k, "table");
                    System.arraycopy(normalise(row, e, name, "table"), 0, table, 0, k);
                    seen[0] = true;
                }
                case "default" -> {
                    if (fallback != null) {
                        throw in.error(e, "variable " + name + ": 'default' is given twice");
                    }
                    fallback = normalise(numbers(name, k, "default"), e, name, "default");
                }
                case "(" -> {
                    int config = 0;
                    List<String> labels = new ArrayList<>();
                    for (int j = 0; j < parentIndex.length; j++) {
                        Token s = in.word("a state of " + nameOf(parentIndex[j]));
                        labels.add(s.text);
                        int si = Arrays.asList(states.get(parentIndex[j])).indexOf(s.text);
                        if (si < 0) {
                            throw in.syntax(s, "variable " + name + ": parent " + nameOf(parentIndex[j])
                                + " has no state '" + s.text + "' (its states: "
                                + String.join(", ", states.get(parentIndex[j])) + ")");
                        }
                        config = config * states.get(parentIndex[j]).length + si;
                        in.expect(j == parentIndex.length - 1 ? ")" : ",");
                    }
                    if (parentIndex.length == 0) {
                        throw in.error(e, "variable " + name + " has no parents: use 'table'");
                    }
                    String row = "(" + String.join(", ", labels) + ")";
                    if (seen[config]) {
                        throw in.error(e, "variable " + name + ": row " + row + " is given twice");
                    }
                    seen[config] = true;
                    double[] values = normalise(numbers(name, k, "row " + row), e, name, "row " + row);
                    System.arraycopy(values, 0, table, config * k, k);
                }
                default -> throw in.syntax(e, "expected '(', 'table', 'default', 'property' or '}' in the probability"
                    + " block of " + name + ", found '" + e.text + "'");
            }
        }
        for (int c = 0; c < configs; c++) {
            if (!seen[c]) {
                if (fallback == null) {
                    throw new InvalidInputException(source + ":" + at.line + ": variable " + name
                        + ": the probability block has no row for parent configuration " + describe(parentIndex, c));
                }
                System.arraycopy(fallback, 0, table, c * k, k);
            }
        }
        parents.put(child, parentIndex);
        tables.put(child, table);
        blockAt.put(child, at.line);
    }

    private String nameOf(int i) {
        return names.get(i);
    }

    private String describe(int[] parentIndex, int config) {
        String[] labels = new String[parentIndex.length];
        for (int j = parentIndex.length - 1; j >= 0; j--) {
            int card = states.get(parentIndex[j]).length;
            labels[j] = states.get(parentIndex[j])[config % card];
            config /= card;
        }
        return "(" + String.join(", ", labels) + ")";
    }

    /** Reads k comma-separated probabilities and the closing ';'. */
    private double[] numbers(String variable, int k, String what) throws IOException {
        double[] values = new double[k];
        String where = "variable " + variable + ", " + what + ": ";
        for (int s = 0; s < k; s++) {
            Token t = in.word("a probability");
            try {
                values[s] = DecimalNumbers.parse(t.text);
            } catch (NumberFormatException ex) {
                throw in.syntax(t, where + "expected a probability, found '" + t.text + "'");
            }
            if (!(values[s] >= 0 && values[s] <= 1)) {
                throw in.syntax(t, where + "probability " + t.text + " is not in [0, 1]");
            }
            boolean last = s == k - 1;
            Token sep = in.require(last ? "';'" : "','");
            if (sep.is(last ? "," : ";")) { // one value too many, or too few
                String found = last ? "more" : "only " + (s + 1) + (s == 0 ? " value" : " values");
                throw in.syntax(sep, where + "expected " + k + " probabilities, found " + found);
            }
            if (!sep.is(last ? ";" : ",")) {
                throw in.syntax(sep, where + "expected " + (last ? "';'" : "','") + " after a probability, found '"
                    + sep.text + "'");
            }
        }
        return values;
    }

    private double[] normalise(double[] row, Token at, String variable, String what) {
        double sum = 0;
        for (double v : row) {
            sum += v;
        }
        if (!(Math.abs(sum - 1) <= ROW_TOLERANCE)) {
            throw in.error(at, "variable " + variable + ", " + what + ": probabilities sum to " + shortForm(sum)
                + ", expected 1 within " + ROW_TOLERANCE);
        }
        for (int s = 0; s < row.length; s++) {
            row[s] /= sum;
        }
        return row;
    }

    /** A sum as people write it: rounded to 12 significant digits, so 0.8999999999999999 prints as 0.9. */
    private static String shortForm(double x) {
        return Double.isFinite(x) ? new BigDecimal(x).round(new MathContext(12)).stripTrailingZeros().toPlainString()
            : String.valueOf(x);
    }

    /** A word, number or punctuation mark, or a quoted name (which is never punctuation or a keyword). */
    private record Token(String text, int line, int column, boolean quoted) {
        /** Whether this is the unquoted symbol or keyword {@code symbol}. */
        boolean is(String symbol) {
            return !quoted && text.equals(symbol);
        }

        /** The keyword this is, or "" for a quoted name. */
        String keyword() {
            return quoted ? "" : text;
        }
    }

    /** Splits BIF text into words and punctuation, skipping comments, tracking line and column numbers. */
    private static final class Tokenizer {
        private static final String PUNCTUATION = "{}()[];,|";
        private final Reader reader;
        private final String source;
        private final int[] ahead = new int[2];
        private int buffered;
        private int line = 1;
        private int column;

        Tokenizer(Reader reader, String source) {
            this.reader = reader;
            this.source = source;
        }

        int line() {
            return line;
        }

        private int read() throws IOException {
            int c;
            if (buffered > 0) {
                c = ahead[0];
                ahead[0] = ahead[1];
                buffered--;
            } else {
                c = reader.read();
            }
            if (c == '\n') {
                line++;
                column = 0;
            } else if (c != -1) {
                column++;
            }
            return c;
        }

        /** The character {@code k} (0 or 1) places after the last one read, not consuming it. */
        private int peek(int k) throws IOException {
            while (buffered <= k) {
                ahead[buffered++] = reader.read();
            }
            return ahead[k];
        }

        /** Whether the next two characters open a comment. */
        private boolean commentAhead() throws IOException {
            return peek(0) == '/' && (peek(1) == '/' || peek(1) == '*');
        }

        /** An error at a token's line (content errors: a declaration as a whole is wrong). */
        InvalidInputException error(Token t, String message) {
            return new InvalidInputException(source + ":" + t.line + ": " + message);
        }

        /** A syntax error at a token's line and column. */
        InvalidInputException syntax(Token t, String message) {
            return at(t.line, t.column, message);
        }

        private InvalidInputException at(int atLine, int atColumn, String message) {
            return new InvalidInputException(source + ":" + atLine + ":" + atColumn + ": " + message);
        }

        Token require(String expected) throws IOException {
            Token t = next();
            if (t == null) {
                throw at(line, column + 1, "unexpected end of input, expected " + expected);
            }
            return t;
        }

        void expect(String text) throws IOException {
            Token t = require("'" + text + "'");
            if (!t.is(text)) {
                throw syntax(t, "expected '" + text + "', found '" + t.text + "'");
            }
        }

        /** A name or number: not punctuation, and not empty (a quoted {@code ""}). */
        Token word(String expected) throws IOException {
            Token t = require(expected);
            if (t.text.isEmpty()) {
                throw syntax(t, "expected " + expected + ", found an empty name \"\"");
            }
            if (!t.quoted && t.text.length() == 1 && PUNCTUATION.contains(t.text)) {
                throw syntax(t, "expected " + expected + ", found '" + t.text + "'");
            }
            return t;
        }

        Token next() throws IOException {
            while (true) {
                if (commentAhead()) {
                    skipComment();
                    continue;
                }
                int c = read();
                if (c == -1) {
                    return null;
                }
                if (Character.isWhitespace(c)) {
                    continue;
                }
                int atLine = line;
                int atColumn = column;
                if (PUNCTUATION.indexOf(c) >= 0) {
                    return new Token(String.valueOf((char) c), atLine, atColumn, false);
                }
                StringBuilder sb = new StringBuilder();
                if (c == '"') { // a quoted name keeps its content, comment markers included
                    while (true) {
                        c = read();
                        if (c == -1) {
                            throw at(atLine, atColumn, "unterminated string");
                        }
                        if (c == '"') {
                            break;
                        }
                        sb.append((char) c);
                    }
                    return new Token(sb.toString(), atLine, atColumn, true);
                }
                sb.append((char) c);
                while (true) { // a word ends at whitespace, punctuation, a quote or a comment
                    int d = peek(0);
                    if (d == -1 || Character.isWhitespace(d) || (PUNCTUATION + "\"").indexOf(d) >= 0
                        || commentAhead()) {
                        break;
                    }
                    sb.append((char) read());
                }
                return new Token(sb.toString(), atLine, atColumn, false);
            }
        }

        /** Skips a comment that {@link #commentAhead()} found. */
        private void skipComment() throws IOException {
            int startLine = line;
            int startColumn = column + 1;
            read();
            if (read() == '/') {
                while (peek(0) != '\n' && peek(0) != -1) {
                    read();
                }
                return;
            }
            int prev = 0;
            while (true) {
                int c = read();
                if (c == -1) {
                    throw at(startLine, startColumn, "unterminated comment");
                }
                if (prev == '*' && c == '/') {
                    return;
                }
                prev = c;
            }
        }
    }
}
