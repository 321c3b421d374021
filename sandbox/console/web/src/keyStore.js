// @ts-check
// This browser's approver keys, kept in IndexedDB of the sandbox's origin so that they survive a
// reload. The private key is stored as the WebCrypto CryptoKey itself (IndexedDB keeps CryptoKey
// objects by structured clone), made non-extractable: it stays non-extractable when read back, so
// no script, this page's included, can ever read its bytes; scripts of this origin can only sign
// with it, as the page does. Keys are kept per organization.

const DB_NAME = "portfolio-wallet-console";
const STORE = "approver-keys";

/**
 * @typedef {object} StoredKey
 * @property {string} publicKey compressed P-256 point, hex: the record's key
 * @property {string} organizationId
 * @property {string} userName
 * @property {CryptoKey} privateKey non-extractable
 * @property {string} createdAt when the sandbox registered it, on the organization's sandbox clock, ISO 8601
 */

/** @returns {Promise<IDBDatabase>} */
function openStore() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DB_NAME, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "publicKey" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

/**
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} act
 * @returns {Promise<T>}
 */
async function withStore(mode, act) {
  const db = await openStore();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const requested = act(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(/** @type {T} */ (requested.result));
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** @param {StoredKey} key */
export const saveKey = (key) => withStore("readwrite", (store) => store.put(key));

/** @param {string} publicKey */
export const deleteKey = (publicKey) => withStore("readwrite", (store) => store.delete(publicKey));

/**
 * The organization's keys kept in this browser, newest first.
 * @param {string} organizationId
 * @returns {Promise<StoredKey[]>}
 */
export async function listKeys(organizationId) {
  /** @type {StoredKey[]} */
  const all = await withStore("readonly", (store) => store.getAll());
  return all
    .filter((key) => key.organizationId === organizationId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
