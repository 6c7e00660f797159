package org.sparkmc.spark.lda;

import java.util.function.IntPredicate;

/**
 * A corpus read for the {@code lda} job: the documents as word ids (on the executors), the vocabulary that names the
 * ids, where it came from, and how many empty documents were skipped.
 *
 * @param documents the non-empty documents, each with its source id (UCI docID, or 1-based line number of a text file)
 * @param vocabulary word id → word
 * @param source a description of the input for logs and summaries
 * @param emptyDocuments documents without a token that were skipped
 */
public record LdaCorpus(LdaDocuments documents, String[] vocabulary, String source, int emptyDocuments) {
    public LdaCorpus {
        if (vocabulary.length != documents.vocabularySize()) {
            throw new IllegalArgumentException(vocabulary.length + " words for a vocabulary of "
                    + documents.vocabularySize());
        }
    }

    /** The held-out test: documents whose id is a multiple of {@code every} (0: none held out). */
    public static IntPredicate heldOut(int every) {
        return every <= 0 ? id -> false : id -> id % every == 0;
    }
}
