package fts

import (
	"context"
	"database/sql"

	"github.com/rtch/rtch/pkg/wiki"
)

// apply brings the pages table in line with files and updates have (the
// stored rows by stored name) to match what it wrote.
func (ix *Index) apply(ctx context.Context, tx *sql.Tx, files []wiki.File, names Names, have map[string]stored, now int64, progress func(done, total int)) (Stats, []wiki.Diagnostic, error) {
	var st Stats
	var diags []wiki.Diagnostic
	var ins *stmts
	onDisk := map[string]bool{}
	var delta corpusDelta
	drop := func(id int64) error {
		if err := delta.forget(ctx, tx, id); err != nil {
			return err
		}
		return deletePage(ctx, tx, id)
	}
	if progress != nil {
		defer func() { progress(len(files), len(files)) }()
	}
	// The pages to re-read are read, parsed and tokenized ahead on other
	// goroutines (readAhead); this loop applies them in listing order.
	// The workers get their own copy of the stored rows they compare with:
	// this loop updates have as it goes.
	var stale []wiki.File
	var prior []*stored
	for _, f := range files {
		if s, ok := have[names.Of(f.Path)]; !ok || !fresh(f, s) {
			stale = append(stale, f)
			if ok {
				prior = append(prior, &s)
			} else {
				prior = append(prior, nil)
			}
		}
	}
	next, stop := readAhead(ix.root, stale, names, prior)
	defer stop()
	for i, f := range files {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return st, nil, err
			}
			if progress != nil && i > 0 {
				progress(i, len(files))
			}
		}
		name := names.Of(f.Path)
		onDisk[name] = true
		s, ok := have[name]
		if ok && fresh(f, s) {
			st.Unchanged++
			continue
		}
		pr := next()
		p, err := pr.page, pr.err
		if err != nil {
			diags = append(diags, wiki.ReadError(f.Path, err))
			if ok {
				if err := drop(s.id); err != nil {
					return st, nil, err
				}
				delete(have, name)
				st.Deleted++
			}
			continue
		}
		row := stored{hash: p.Hash, size: f.Size, mtime: f.ModTime, ctime: f.ChangeTime, ino: int64(f.Inode), indexedAt: now}
		if ok && p.Hash == s.hash {
			st.Unchanged++
			st.Rehashed++
			if _, err := tx.ExecContext(ctx, `UPDATE pages SET size=?, mtime=?, ctime=?, ino=?, indexed_at=? WHERE id=?`, f.Size, f.ModTime, f.ChangeTime, int64(f.Inode), now, s.id); err != nil {
				return st, nil, err
			}
			row.id = s.id
			have[name] = row
			continue
		}
		if ok {
			if err := drop(s.id); err != nil {
				return st, nil, err
			}
			st.Changed++
		} else {
			st.Added++
		}
		if ins == nil {
			var err error
			if ins, err = prepare(ctx, tx); err != nil {
				return st, nil, err
			}
		}
		if row.id, err = insertPage(ctx, ins, f, name, pr, now, &delta); err != nil {
			return st, nil, err
		}
		have[name] = row
	}
	for path, s := range have {
		if !onDisk[path] {
			if err := drop(s.id); err != nil {
				return st, nil, err
			}
			delete(have, path)
			st.Deleted++
		}
	}
	return st, diags, delta.write(ctx, tx)
}

func deletePage(ctx context.Context, tx *sql.Tx, id int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM sections_fts WHERE rowid IN (SELECT id FROM sections WHERE page_id=?)`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sections WHERE page_id=?`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM supersedes WHERE page_id=?`, id); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM pages WHERE id=?`, id)
	return err
}

// stmts are the inserts of one refresh, prepared once per transaction.
type stmts struct {
	page, section, fts, supersedes *sql.Stmt
}

func prepare(ctx context.Context, tx *sql.Tx) (*stmts, error) {
	var st stmts
	var err error
	for _, x := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&st.page, `INSERT INTO pages(path, hash, size, mtime, ctime, ino, indexed_at, category, importance, page, diags) VALUES(?,?,?,?,?,?,?,?,?,?,?)`},
		{&st.section, `INSERT INTO sections(page_id, ord, heading, start_line, end_line, text, len) VALUES(?,?,?,?,?,?,?)`},
		{&st.fts, `INSERT INTO sections_fts(rowid, terms, meta) VALUES(?, ?, ?)`},
		{&st.supersedes, `INSERT INTO supersedes(page_id, target) VALUES(?, ?)`},
	} {
		if *x.dst, err = tx.PrepareContext(ctx, x.q); err != nil {
			return nil, err
		}
	}
	return &st, nil
}

// insertPage inserts a prepared page under its stored name and returns its
// row id.
func insertPage(ctx context.Context, st *stmts, f wiki.File, name string, r *readPage, now int64, delta *corpusDelta) (int64, error) {
	p := r.page
	res, err := st.page.ExecContext(ctx, name, p.Hash, f.Size, f.ModTime, f.ChangeTime, int64(f.Inode), now, p.Category, p.Front.Importance, r.meta, r.diagsJSON)
	if err != nil {
		return 0, err
	}
	pid, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	for _, t := range storedTargets(p.Front.Supersedes) {
		if _, err := st.supersedes.ExecContext(ctx, pid, t); err != nil {
			return 0, err
		}
	}
	metaTok := MetaTokens(p.Category, p.Front.Importance)
	for i, s := range StoredSections(p) {
		res, err := st.section.ExecContext(ctx, pid, i, s.HeadingPath(), s.StartLine, s.EndLine, s.Text, r.stats[i].len)
		if err != nil {
			return 0, err
		}
		sid, err := res.LastInsertId()
		if err != nil {
			return 0, err
		}
		if _, err := st.fts.ExecContext(ctx, sid, r.terms[i], metaTok); err != nil {
			return 0, err
		}
		delta.add(r.stats[i], 1)
	}
	return pid, nil
}
